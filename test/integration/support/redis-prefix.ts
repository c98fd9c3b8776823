import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, beforeEach } from 'vitest';

/** The Redis the suite writes to: `REDIS_URL` when set (CI, a throwaway server), else the local default. */
export const TEST_REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/** A Redis key prefix of its own for one test (`CATALOG_SYNC_PREFIX`), so tests never see each other's data. */
export function uniquePrefix(): string {
  return `cs-test-${randomBytes(6).toString('hex')}`;
}

/** Deletes every key under the prefix (catalog-sync's and BullMQ's), with SCAN so Redis never blocks. */
export async function removePrefix(prefix: string, url = TEST_REDIS_URL): Promise<number> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  let removed = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) removed += await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
  return removed;
}

/** Runs `body` with a Redis connection of its own, always closed after. */
export async function withRedis<T>(body: (redis: Redis) => Promise<T>, url = TEST_REDIS_URL): Promise<T> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: null });
  await redis.connect();
  try {
    return await body(redis);
  } finally {
    await redis.quit();
  }
}

/**
 * For each test of the calling `describe`: a prefix of its own and a client, closed and the prefix
 * removed after the test. Read `.prefix` and `.redis` inside tests (they change per test).
 */
export function usePrefixedRedis(): { readonly prefix: string; readonly redis: Redis } {
  const current: { prefix: string; redis: Redis | null } = { prefix: '', redis: null };
  beforeEach(() => {
    current.prefix = uniquePrefix();
    current.redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
  });
  afterEach(async () => {
    await current.redis?.quit();
    current.redis = null;
    await removePrefix(current.prefix);
  });
  return {
    get prefix() {
      return current.prefix;
    },
    get redis() {
      if (!current.redis) throw new Error('usePrefixedRedis: read .redis inside a test');
      return current.redis;
    },
  };
}
