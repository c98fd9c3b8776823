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

  /** A run of the seller listed in its runs, its record's spec saying whether it was a dry run. */
  const listRun = (id: string, dryRun: boolean) => async (redis: Redis, keys: RedisKeys) => {
    await redis.hset(keys.run(id), 'spec', JSON.stringify({ sellerRef: REF, matchBy: 'sku', dryRun }));
    await redis.zadd(keys.sellerRuns(REF), 1, id);
  };

  // Whether each record makes the ref its key's own: what a dry run leaves alone does not.
  const records: Array<[string, boolean, (redis: Redis, keys: RedisKeys) => Promise<unknown>]> = [
    ['nothing', false, async () => undefined],
    ['a name', true, (redis, keys) => redis.hset(keys.seller(REF), 'name', 'acme')],
    ['a run listed', true, listRun('r1', false)],
    ['a dry run listed', false, listRun('r1', true)],
    [
      'dry runs listed, then a real run',
      true,
      async (redis, keys) => {
        await listRun('r1', false)(redis, keys);
        for (let i = 2; i < 30; i++) await listRun(`r${i}`, true)(redis, keys);
      },
    ],
    ['a run listed whose record expired', false, (redis, keys) => redis.zadd(keys.sellerRuns(REF), 1, 'r1')],
    [
      "the day's request count (a dry run's list read)",
      false,
      (redis, keys) => redis.set(keys.requestsUsed(REF, 0), '1'),
    ],
    ['a product in its id map', true, (redis, keys) => redis.hset(keys.idMapBucket(REF, 517), 'SKU-1', '{}')],
    ['fields sent', true, (redis, keys) => redis.sadd(keys.fieldsSent(REF), 'price')],
    ['its match field made home (a real run)', true, (redis, keys) => redis.set(keys.idMapHome(REF), 'sku')],
    // The API account's quota, which any request may teach (a dry run's list read answered 429).
    ['a limit learned', false, (redis, keys) => redis.set(keys.learnedLimit(REF), '{}')],
    ['a limit reset announced', false, (redis, keys) => redis.set(keys.limitReset(REF), '1')],
    [
      'another key linked to it',
      true,
      (redis, keys) => redis.hset(keys.sellerAliases, 'fedcba9876543210', REF),
    ],
  ];

  for (const [what, owned, record] of records) {
    it(`${what}: ${owned ? 'yes' : 'no'}, as keyHolder says`, async () => {
      const keys = new RedisKeys(own.prefix);
      await record(own.redis, keys);

      const has = await keyHasHistory(own.redis, keys, REF, REF);

      expect(has).toBe(owned);
      expect(has).toBe((await keyHolder(own.redis, keys, REF, REF)) !== null);
    });
  }

  it("keyHolder counts the runs that were not dry runs: what `resume`'s refusal says was recorded", async () => {
    const keys = new RedisKeys(own.prefix);
    await listRun('r1', false)(own.redis, keys);
    await listRun('r2', true)(own.redis, keys);
    await listRun('r3', false)(own.redis, keys);

    expect(await keyHolder(own.redis, keys, REF, REF)).toMatchObject({ runs: 2, products: 0 });
  });

  it('a key linked to the seller on purpose (its ref is not the key): yes', async () => {
    expect(await keyHasHistory(own.redis, new RedisKeys(own.prefix), REF, 'fedcba9876543210')).toBe(true);
  });
});
