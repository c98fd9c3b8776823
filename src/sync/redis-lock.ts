import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

// Compare-and-act: a holder whose lock expired (a long pause, a stalled event loop) and was taken by
// another must neither extend nor delete that other's lock.
const EXTEND_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;
const RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/** A lock this process holds; it keeps itself alive until released or found taken by another. */
export interface HeldLock {
  readonly token: string;
  /** True once a renewal found the lock gone or held by another token: the keep-alive has stopped. */
  readonly lost: boolean;
  /** Stops the keep-alive and deletes the lock if it is still ours. */
  release(): Promise<void>;
}

export interface LockOptions {
  /** How long the lock lasts without renewal: a holder that dies frees it after this long. */
  ttlMs: number;
  /** How often the holder renews it. Default a third of `ttlMs`, so two renewals may fail in a row. */
  renewEveryMs?: number;
}

/** Takes the lock if it is free; null when another holds it. */
export async function tryLock(redis: Redis, key: string, options: LockOptions): Promise<HeldLock | null> {
  const token = randomUUID();
  if ((await redis.set(key, token, 'PX', options.ttlMs, 'NX')) !== 'OK') return null;
  let lost = false;
  const renew = async (): Promise<void> => {
    try {
      if (await extendLock(redis, key, token, options.ttlMs)) return;
      lost = true;
      clearInterval(keepAlive);
    } catch {
      // Redis out of reach for a moment: the next renewal tries again, before the lock expires.
    }
  };
  const keepAlive = setInterval(renew, options.renewEveryMs ?? Math.floor(options.ttlMs / 3));
  // A renewal timer must not keep a process alive that has nothing else to do.
  keepAlive.unref();
  return {
    token,
    get lost() {
      return lost;
    },
    async release() {
      clearInterval(keepAlive);
      await redis.eval(RELEASE_SCRIPT, 1, key, token);
    },
  };
}

/** Extends the lock by `ttlMs` only while `token` holds it; false when it is gone or another's. */
export async function extendLock(redis: Redis, key: string, token: string, ttlMs: number): Promise<boolean> {
  return (await redis.eval(EXTEND_SCRIPT, 1, key, token, ttlMs)) === 1;
}
