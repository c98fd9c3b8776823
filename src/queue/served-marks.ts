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
 * Marks that a live worker served the seller until a key changed in its keys file, and holds the
 * new key, linked to no seller yet (keys.ts keyChangedUnlinked): renewed as the served marks are.
 */
export async function markKeyChanged(
  redis: Redis,
  keys: RedisKeys,
  refs: readonly string[],
  now: number,
): Promise<void> {
  await Promise.all(refs.map((ref) => redis.set(keys.keyChangedUnlinked(ref), now, 'PX', SERVED_TTL_MS)));
}

/** The worker serves the sellers again (`resume` linked the new key): their marks go at once. */
export async function clearKeyChanged(redis: Redis, keys: RedisKeys, refs: readonly string[]): Promise<void> {
  await Promise.all(refs.map((ref) => redis.del(keys.keyChangedUnlinked(ref))));
}

/** True when a live worker holds a changed key of the seller that no `resume` linked yet. */
export async function hasKeyChanged(redis: Redis, keys: RedisKeys, ref: string): Promise<boolean> {
  return (await redis.exists(keys.keyChangedUnlinked(ref))) === 1;
}

/**
 * Renews the marks of the sellers `refs()` names now and every SERVED_RENEW_MS until stopped; a
 * failed renewal is retried at the next one (the mark outlives two missed renewals). `keyChanged()`:
 * the sellers whose key-changed mark is renewed with them.
 */
export function keepMarkedServed(
  redis: Redis,
  keys: RedisKeys,
  refs: () => readonly string[],
  now: () => number = Date.now,
  keyChanged: () => readonly string[] = () => [],
): () => void {
  const renew = () => {
    markServed(redis, keys, refs(), now()).catch(() => undefined);
    const changed = keyChanged();
    if (changed.length > 0) markKeyChanged(redis, keys, changed, now()).catch(() => undefined);
  };
  renew();
  const timer = setInterval(renew, SERVED_RENEW_MS);
  timer.unref();
  return () => clearInterval(timer);
}
