import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, beforeEach } from 'vitest';
import { callsStillRunning, SETTLE_BOUNDS, type SettleBounds, settleCalls } from './cli-calls.js';

/** The Redis the suite writes to: `REDIS_URL` when set (CI, a throwaway server), else the local default. */
export const TEST_REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/** A Redis key prefix of its own for one test (`CATALOG_SYNC_PREFIX`), so tests never see each other's data. */
export function uniquePrefix(): string {
  return `cs-test-${randomBytes(6).toString('hex')}`;
}

/**
 * Deletes every key under the prefix (catalog-sync's and BullMQ's), with SCAN so Redis never blocks;
 * first waits for the in-process CLI calls under it to end (settleCalls: at once when none runs),
 * and throws, once the keys are gone, naming any call an interrupt did not end.
 */
export async function removePrefix(
  prefix: string,
  url = TEST_REDIS_URL,
  settle: SettleBounds = SETTLE_BOUNDS,
): Promise<number> {
  const stillRunning = await settleCalls(prefix, settle);
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
  if (stillRunning.length > 0) throw callsStillRunning(prefix, stillRunning);
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

/**
 * For each test of the calling `describe`: a prefix of its own and as many clients as it asks for,
 * each standing for a process of its own (a one-time step per client, e.g. a migration, runs once in
 * each); all closed and the prefix removed after the test. Read `.prefix` inside tests.
 */
export function usePrefixedClients(): { readonly prefix: string; client: () => Redis } {
  const current: { prefix: string; clients: Redis[] } = { prefix: '', clients: [] };
  beforeEach(() => {
    current.prefix = uniquePrefix();
    current.clients = [];
  });
  afterEach(async () => {
    await Promise.all(current.clients.map((redis) => redis.quit()));
    await removePrefix(current.prefix);
  });
  return {
    get prefix() {
      return current.prefix;
    },
    client: () => {
      const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
      current.clients.push(redis);
      return redis;
    },
  };
}

/**
 * Every key and value under the prefix, as one text, whatever the Redis type (strings read as
 * bytes, latin1): what a test searches for a secret that must be nowhere in Redis.
 */
export async function dumpPrefix(redis: Redis, prefix: string): Promise<string> {
  const parts: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    for (const key of keys) {
      parts.push(key);
      const type = await redis.type(key);
      if (type === 'string') parts.push((await redis.getBuffer(key))?.toString('latin1') ?? '');
      else if (type === 'hash') parts.push(JSON.stringify(await redis.hgetall(key)));
      else if (type === 'list') parts.push(JSON.stringify(await redis.lrange(key, 0, -1)));
      else if (type === 'set') parts.push(JSON.stringify(await redis.smembers(key)));
      else if (type === 'zset') parts.push(JSON.stringify(await redis.zrange(key, 0, -1)));
      else if (type === 'stream') parts.push(JSON.stringify(await redis.xrange(key, '-', '+')));
    }
  } while (cursor !== '0');
  return parts.join('\n');
}
