import { terminalSafeLine } from '../terminal-safe.js';
import { API_HOSTS_VARIABLE, hostOfUrl, isHostAllowed, type TrustRules } from '../trust-rules.js';
import { sellerRef } from './seller-ref.js';
import type { SellerInfo, SellerRegistry } from './seller-registry.js';

/** Sellers named in one line at most; the rest are counted. */
const SHOWN = 5;

/** Registered sellers on one API host this process may not send keys to, whose keys it holds. */
export interface RefusedHost {
  /** `host:port`, as CATALOG_SYNC_API_HOSTS takes it. */
  host: string;
  sellers: SellerInfo[];
}

/**
 * The sellers this process holds a key for (servable-sellers.ts: by fingerprint, or the link
 * `resume` made) but will not serve, their base URL's host not allowed by its trust rules, by host.
 * Without a word of it, a worker started without CATALOG_SYNC_API_HOSTS (or SELLER_API_BASE_URL)
 * looked like it served them, while each `import` waited, then said no running worker holds the key.
 */
export async function keysOnRefusedHosts(
  registry: Pick<SellerRegistry, 'resolveRefs'>,
  registered: readonly SellerInfo[],
  keys: readonly string[],
  trust: Pick<TrustRules, 'hosts'>,
): Promise<RefusedHost[]> {
  if (keys.length === 0) return [];
  const byHost = new Map<string, SellerInfo[]>();
  const refused = [...new Set(registered.map((seller) => seller.baseUrl))].filter(
    (url) => !isHostAllowed(url, trust.hosts),
  );
  for (const baseUrl of refused) {
    const parsed = hostOfUrl(baseUrl, '');
    if (!parsed) continue;
    const held = new Set(await registry.resolveRefs(keys.map((key) => sellerRef(baseUrl, key))));
    const sellers = registered.filter((seller) => seller.baseUrl === baseUrl && held.has(seller.ref));
    if (sellers.length === 0) continue;
    const host = `${parsed.hostname}:${parsed.port}`;
    byHost.set(host, [...(byHost.get(host) ?? []), ...sellers]);
  }
  return [...byHost].map(([host, sellers]) => ({ host, sellers }));
}

/** One line for a host: whose keys are held, why they are not served, and how to allow it. */
export function refusedHostLine({ host, sellers }: RefusedHost): string {
  const labels = sellers
    .slice(0, SHOWN)
    .map((seller) => (seller.name ? `${seller.name} (${seller.ref})` : seller.ref));
  const more = sellers.length > SHOWN ? ` and ${sellers.length - SHOWN} more` : '';
  const one = sellers.length === 1;
  const who = `${one ? 'seller' : 'sellers'} ${labels.join(', ')}${more}`;
  // From Redis: a name is checked when registered, but shown terminal-safe all the same.
  return terminalSafeLine(
    `this worker holds the key of ${who} but does not serve ${one ? 'it' : 'them'}: ` +
      `${one ? 'its' : 'their'} API host ${host} is not allowed here; add ${host} to ${API_HOSTS_VARIABLE} ` +
      `(a comma list) or set SELLER_API_BASE_URL to that API in this worker's environment, and restart it`,
  );
}
