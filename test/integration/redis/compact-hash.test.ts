import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rewriteHash } from '../../../src/redis/compact-hash.js';
import { removePrefix, TEST_REDIS_URL, uniquePrefix } from '../support/redis-prefix.js';

let prefix = '';
let redis: Redis;

beforeEach(() => {
  prefix = uniquePrefix();
  redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
});

afterEach(async () => {
  await redis.quit();
  await removePrefix(prefix);
});

const usage = async (key: string) => Number(await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0'));

/** A hash that held `held` fields and now holds the first `kept`. */
async function emptiedHash(key: string, held: number, kept: number): Promise<void> {
  for (let first = 0; first < held; first += 1000) {
    const fields = Array.from({ length: Math.min(1000, held - first) }, (_, i) => first + i);
    await redis.hset(key, Object.fromEntries(fields.map((f) => [String(f), `["SKU-${f}","update","${f}"]`])));
  }
  for (let first = kept; first < held; first += 1000) {
    const fields = Array.from({ length: Math.min(1000, held - first) }, (_, i) => String(first + i));
    await redis.hdel(key, ...fields);
  }
}

describe('a hash written again', () => {
  it('keeps its fields, byte for byte, and its TTL, in no more than its fields take', async () => {
    const key = `${prefix}:a`;
    await emptiedHash(key, 20_000, 300);
    await redis.hset(key, 'u:0', Buffer.from([0, 255, 124, 92, 10]));
    await redis.pexpire(key, 600_000);
    const fields = await redis.hgetallBuffer(key);
    const before = await usage(key);
    expect(await rewriteHash(redis, key)).toBe(true);
    expect(await redis.hgetallBuffer(key)).toEqual(fields);
    expect(await redis.pttl(key)).toBeGreaterThan(590_000);
    // A copy of the same name length, written from the fields, is sized to them.
    const copy = `${prefix}:b`;
    await redis.restore(copy, 0, await redis.dumpBuffer(key));
    expect(await usage(key)).toBe(await usage(copy));
    expect(await usage(key)).toBeLessThan(before / 4);
  });

  it('stays without a TTL when it had none, and as it is above the fields asked for', async () => {
    const key = `${prefix}:a`;
    await redis.hset(key, 'a', '1', 'b', '2');
    expect(await rewriteHash(redis, key)).toBe(true);
    expect(await redis.pttl(key)).toBe(-1);
    expect(await rewriteHash(redis, key, 1)).toBe(false);
    expect(await rewriteHash(redis, `${prefix}:none`)).toBe(false);
    expect(await redis.exists(`${prefix}:none`)).toBe(0);
  });
});
