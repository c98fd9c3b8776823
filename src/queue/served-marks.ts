import type { Redis } from 'ioredis';
import { SERVED_RENEW_MS, SERVED_TTL_MS } from '../defaults.js';
import type { RedisKeys } from '../runs/keys.js';

/**
 * Marks that some live process can serve a seller (it holds the seller's key): renewed every
 * SERVED_RENEW_MS, gone SERVED_TTL_MS after the last process that could serve the seller stopped.
 * Only a time is stored: which process, or which key, is not.
 */
export async function markServed(
  redis: Redis,
  keys: RedisKeys,
  refs: readonly string[],
  now: number,
): Promise<void> {
  // One command per seller, sent together: each key lives in its seller's hash slot.
  await Promise.all(refs.map((ref) => redis.set(keys.servedBy(ref), now, 'PX', SERVED_TTL_MS)));
}

/** True when a process that can serve the seller renewed its mark lately. */
export async function isServed(redis: Redis, keys: RedisKeys, ref: string): Promise<boolean> {
  return (await redis.exists(keys.servedBy(ref))) === 1;
}

/**
 * Renews the marks of the sellers `refs()` names now and every SERVED_RENEW_MS until stopped; a
 * failed renewal is retried at the next one (the mark outlives two missed renewals).
 */
export function keepMarkedServed(
  redis: Redis,
  keys: RedisKeys,
  refs: () => readonly string[],
  now: () => number = Date.now,
): () => void {
  const renew = () => {
    markServed(redis, keys, refs(), now()).catch(() => undefined);
  };
  renew();
  const timer = setInterval(renew, SERVED_RENEW_MS);
  timer.unref();
  return () => clearInterval(timer);
}
