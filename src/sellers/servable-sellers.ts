import { baseUrlRefusal, isKeyEnvAllowed, type TrustRules } from '../trust-rules.js';
import { sellerRef } from './seller-ref.js';
import type { SellerInfo, SellerRegistry } from './seller-registry.js';

/**
 * The keys this process holds: the values of every key variable the trust rules allow (SELLER_API_KEY,
 * SELLER_API_KEY_*, the names CATALOG_SYNC_KEY_ENVS lists), each once.
 */
export function heldKeys(env: NodeJS.ProcessEnv, trust: Pick<TrustRules, 'keyEnvs'>): string[] {
  const keys = new Set<string>();
  for (const name of Object.keys(env).sort()) {
    const value = env[name]?.trim();
    if (value && isKeyEnvAllowed(name, trust.keyEnvs)) keys.add(value);
  }
  return [...keys];
}

/**
 * The registered sellers this process can serve (issue 13: a worker takes only work it can do): those
 * whose base URL its trust rules allow and one of whose keys it holds (a key belongs to a seller by
 * its fingerprint, or by the link `resume` made when the key was replaced). Never a key is stored:
 * fingerprints are compared.
 */
export async function servableSellers(
  registry: Pick<SellerRegistry, 'resolveRefs'>,
  registered: readonly SellerInfo[],
  keys: readonly string[],
  trust: TrustRules,
): Promise<SellerInfo[]> {
  if (keys.length === 0) return [];
  const baseUrls = [...new Set(registered.map((seller) => seller.baseUrl))].filter(
    (url) => baseUrlRefusal(url, trust) === null,
  );
  const refsByBase = new Map<string, Set<string>>();
  for (const baseUrl of baseUrls) {
    const fingerprints = keys.map((key) => sellerRef(baseUrl, key));
    refsByBase.set(baseUrl, new Set(await registry.resolveRefs(fingerprints)));
  }
  return registered.filter((seller) => refsByBase.get(seller.baseUrl)?.has(seller.ref) === true);
}
