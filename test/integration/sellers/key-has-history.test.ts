import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { RedisKeys } from '../../../src/runs/keys.js';
import { keyHasHistory, keyHolder } from '../../../src/sellers/key-holder.js';
import { usePrefixedRedis } from '../support/redis-prefix.js';

const REF = 'abcdef0123456789';

/**
 * keyHasHistory is keyHolder's judgement as a yes or no, made before every `run` of a seller known
 * by its key: the same answer for each thing a seller's runs leave, without an HLEN per bucket.
 */
describe('keyHasHistory', () => {
  const own = usePrefixedRedis();

  const records: Array<[string, (redis: Redis, keys: RedisKeys) => Promise<unknown>]> = [
    ['nothing', async () => undefined],
    ['a name', (redis, keys) => redis.hset(keys.seller(REF), 'name', 'acme')],
    ['a run listed', (redis, keys) => redis.zadd(keys.sellerRuns(REF), 1, 'r1')],
    ['a product in its id map', (redis, keys) => redis.hset(keys.idMapBucket(REF, 517), 'SKU-1', '{}')],
    ['fields sent', (redis, keys) => redis.sadd(keys.fieldsSent(REF), 'price')],
    ['a limit learned', (redis, keys) => redis.set(keys.learnedLimit(REF), '{}')],
    ['another key linked to it', (redis, keys) => redis.hset(keys.sellerAliases, 'fedcba9876543210', REF)],
  ];

  for (const [what, record] of records) {
    it(`${what}: ${what === 'nothing' ? 'no' : 'yes'}, as keyHolder says`, async () => {
      const keys = new RedisKeys(own.prefix);
      await record(own.redis, keys);

      const has = await keyHasHistory(own.redis, keys, REF, REF);

      expect(has).toBe(what !== 'nothing');
      expect(has).toBe((await keyHolder(own.redis, keys, REF, REF)) !== null);
    });
  }

  it('a key linked to the seller on purpose (its ref is not the key): yes', async () => {
    expect(await keyHasHistory(own.redis, new RedisKeys(own.prefix), REF, 'fedcba9876543210')).toBe(true);
  });
});
