import { secretTextFault, secretTextRefusal } from '../secret-text.js';
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
    if (value && isKeyEnvAllowed(name, trust.keyEnvs) && secretTextFault(value) === null) keys.add(value);
  }
  return [...keys];
}

/**
 * One line for each allowed key variable whose value no key holds (a typographic quote, a space…:
 * secret-text.ts). Such a key is never sent (Node refuses it as a header), so its seller's runs
 * would wait for a worker with no word of why: the worker names the variable at its start.
 */
export function unusableKeyLines(env: NodeJS.ProcessEnv, trust: Pick<TrustRules, 'keyEnvs'>): string[] {
  return Object.keys(env)
    .sort()
    .filter((name) => isKeyEnvAllowed(name, trust.keyEnvs))
    .map((name) => secretTextRefusal(name, env[name]?.trim() ?? '', 'API key'))
    .filter((line): line is string => line !== null)
    .map((line) => `${line}; this worker does not use it`);
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
