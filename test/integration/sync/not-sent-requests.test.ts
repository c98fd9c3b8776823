import { afterEach, describe, expect, it } from 'vitest';
import { RedisKeys } from '../../../src/runs/keys.js';
import { learnLimit } from '../../../src/runs/learned-limit.js';
import { SellerState } from '../../../src/sellers/seller-state.js';
import { removePrefix, uniquePrefix, withRedis } from '../support/redis-prefix.js';

const REF = '0123456789abcdef';
const NOW = Date.parse('2024-05-10T15:30:00.000Z');

/**
 * A request whose connection was never made gives its number back (ReservedRequest.notSent): the
 * API neither counted nor applied it, so the day's count, the window's, and the requests in flight
 * the next number past a limit waits for, leave it out.
 */
describe('the number of a request that never reached the API', () => {
  let prefix = '';
  afterEach(async () => {
    await removePrefix(prefix);
  });

  function sellers(redis: Parameters<Parameters<typeof withRedis>[0]>[0]) {
    prefix = uniquePrefix();
    const keys = new RedisKeys(prefix);
    const make = () => new SellerState(redis, keys, () => NOW);
    return { keys, one: make(), other: make() };
  }

  it('goes back to the day: `status` counts the requests sent only', async () => {
    await withRedis(async (redis) => {
      const { one } = sellers(redis);
      for (let i = 0; i < 5; i++) {
        const reserved = await one.reserveWithinLimit(REF, '00:00', null);
        // The 2nd and the 4th met a closed port.
        if (i === 1 || i === 3) await reserved.notSent?.();
        reserved.answered();
      }
      await one.quota.giveBackAll();
      expect((await one.status(REF, '00:00')).requestsToday).toBe(3);
    });
  });

  it('past a learned limit, is not a request in flight: the next one, here or elsewhere, goes in its place', async () => {
    await withRedis(async (redis) => {
      const { keys, one, other } = sellers(redis);
      // A 429 of an earlier window after 2 requests accepted in it: the limit is 2.
      const earlier = { windowStart: NOW - 3_600_000, accepted: 2, refused: true, at: NOW - 60_000 };
      expect(await learnLimit(redis, keys, REF, earlier)).toBe(2);
      await one.assertNotPaused(REF);
      await other.assertNotPaused(REF);
      for (let i = 0; i < 2; i++) (await one.reserveWithinLimit(REF, '00:00', null)).answered();
      // The probe past the limit met a closed port.
      const probe = await one.reserveWithinLimit(REF, '00:00', null);
      expect(probe.window).toBe(3);
      await probe.notSent?.();
      probe.answered();
      await one.quota.giveBackAll();

      // Another process's probe is not held back waiting for it, and takes the same place.
      const next = await other.reserveWithinLimit(REF, '00:00', null);
      expect(next.window).toBe(3);
      next.answered();
      await other.quota.giveBackAll();
      expect((await other.status(REF, '00:00')).requestsToday).toBe(3);
    });
  });
});
