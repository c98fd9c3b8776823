import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RequestQuota } from '../../../src/sellers/request-quota.js';
import { removePrefix, TEST_REDIS_URL, uniquePrefix } from '../support/redis-prefix.js';

describe('the request quota, counted in blocks (a real Redis)', () => {
  let redis: Redis;
  let prefix: string;
  let counter: string;
  let runKey: string;

  beforeEach(async () => {
    prefix = uniquePrefix();
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    counter = `${prefix}:requests:day1`;
    runKey = `${prefix}:run:r1`;
    await redis.hset(runKey, 'spec', '{}');
  });
  afterEach(async () => {
    await redis.quit();
    await removePrefix(prefix);
  });

  it('hands out numbers in order, one block at a time, and gives the unused ones back', async () => {
    const quota = new RequestQuota(redis, 16);
    quota.hold('s');
    const numbers = await Promise.all(
      Array.from({ length: 20 }, () => quota.take('s', counter, null, runKey)),
    );
    expect([...numbers].sort((a, b) => Number(a) - Number(b))).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    expect(await redis.get(counter)).toBe('32');
    await quota.release('s');
    expect(await redis.get(counter)).toBe('20');
  });

  it('keeps the block while another chunk of the seller is under way', async () => {
    const quota = new RequestQuota(redis, 16);
    quota.hold('s');
    quota.hold('s');
    await quota.take('s', counter, null, runKey);
    await quota.release('s');
    expect(await redis.get(counter)).toBe('16');
    await quota.release('s');
    expect(await redis.get(counter)).toBe('1');
  });

  it('never reserves past the budget, also when two processes share the seller', async () => {
    const one = new RequestQuota(redis, 16);
    const two = new RequestQuota(redis, 16);
    const taken = [];
    for (let i = 0; i < 6; i++) taken.push(await one.take('s', counter, 20, runKey));
    for (let i = 0; i < 20; i++) {
      const number = await two.take('s', counter, 20, runKey);
      if (typeof number !== 'number') {
        expect(number).toEqual({ refused: 'budget', used: 20 });
        break;
      }
      taken.push(number);
    }
    // `one` holds 10 unused numbers of its block: `two` got only the 4 left under the budget.
    expect(taken).toHaveLength(10);
    await one.giveBackAll();
    expect(await redis.get(counter)).toBe('10');
  });

  it('starts a new block when the quota day turns, giving the old day its unused numbers back', async () => {
    const quota = new RequestQuota(redis, 16);
    await quota.take('s', counter, null, runKey);
    expect(await quota.take('s', `${prefix}:requests:day2`, null, runKey)).toBe(1);
    expect(await redis.get(counter)).toBe('1');
  });

  it('refuses once the run’s record is gone', async () => {
    const quota = new RequestQuota(redis, 16);
    await redis.del(runKey);
    expect(await quota.take('s', counter, null, runKey)).toEqual({ refused: 'lost' });
    expect(await redis.get(counter)).toBeNull();
  });

  it('numbers a request in the limit window too, from the reset on, and gives back to both counts', async () => {
    const quota = new RequestQuota(redis, 16);
    const window = `${prefix}:requests:since-reset`;
    for (let i = 0; i < 5; i++) await quota.take('s', counter, null, runKey);
    await quota.returnUnused('s');
    // The API's day began anew: the quota day counts on, the window from 1.
    const taken = await quota.takeNumbers('s', { day: counter, window }, null, runKey);
    expect(taken).toEqual({ day: 6, window: 1 });
    expect(quota.nextAtLeast('s', { day: counter, window })).toBe(2);
    await quota.giveBackOne({ day: counter, window });
    await quota.returnUnused('s');
    expect([await redis.get(counter), await redis.get(window)]).toEqual(['5', '0']);
  });

  it('counts the numbers held in blocks apart, so that the day count less them is requests sent', async () => {
    const one = new RequestQuota(redis, 16);
    const two = new RequestQuota(redis, 16);
    const reserved = `${prefix}:reserved:day1`;
    const counters = { day: counter, window: counter, reserved };
    const take = (quota: RequestQuota) => quota.takeNumbers('s', counters, null, runKey);
    const held = async () => [Number(await redis.get(counter)), Number(await redis.get(reserved))];
    for (let i = 0; i < 3; i++) await take(one);
    await take(two);
    expect(await held()).toEqual([32, 32]);
    // A used-up block replaced by the next is held no more: 16 sent, the new block held.
    for (let i = 0; i < 14; i++) await take(one);
    expect(await held()).toEqual([48, 32]);
    await one.returnUnused('s');
    await two.returnUnused('s');
    expect(await held()).toEqual([18, 0]);
    // A number taken and not sent goes back with the block still held.
    await take(one);
    await one.giveBackOne(counters);
    await one.returnUnused('s');
    expect(await held()).toEqual([18, 0]);
  });
});
