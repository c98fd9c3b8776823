import { createHash } from 'node:crypto';

/**
 * A seller's name in Redis and in queue names: a short fingerprint of the base URL and the key.
 * The same key always lands in the same queue, and nothing stored can be turned back into the key
 * (docs/architecture.md, decisions 1 and 7).
 */
export function sellerRef(baseUrl: string, apiKey: string): string {
  const normalisedBase = baseUrl.replace(/\/+$/, '');
  return createHash('sha256').update(`${normalisedBase}\n${apiKey}`).digest('hex').slice(0, 16);
}

/**
 * One BullMQ queue per seller: a 429 for one seller must not slow another. The name without a
 * cluster; the tool asks RedisKeys.sellerQueue, which tags it on a cluster.
 */
export function sellerQueueName(ref: string): string {
  return `sync-${ref}`;
}
