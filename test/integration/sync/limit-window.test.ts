import { afterEach, describe, expect, it } from 'vitest';
import { RedisKeys } from '../../../src/runs/keys.js';
import { learnLimit } from '../../../src/runs/learned-limit.js';
import { SellerState } from '../../../src/sellers/seller-state.js';
import { SellerPausedError } from '../../../src/sync/seller-pause.js';
import { removePrefix, uniquePrefix, withRedis } from '../support/redis-prefix.js';

const REF = '0123456789abcdef';
const RESET = Date.parse('2024-05-10T15:30:00.000Z');

describe("a seller's daily-limit window, shared by its processes (issue 31)", () => {
  let prefix = '';
  afterEach(async () => {
    await removePrefix(prefix);
  });

  /** Two processes' views of one seller, on one clock the test moves. */
  function sellers(redis: Parameters<Parameters<typeof withRedis>[0]>[0]) {
    prefix = uniquePrefix();
    const clock = { now: RESET - 60_000 };
    const keys = new RedisKeys(prefix);
    const make = () => new SellerState(redis, keys, () => clock.now);
    return { clock, keys, one: make(), other: make() };
  }

  it('counts from the reset a 429 announced, in every process: the day, that status reads too', async () => {
    await withRedis(async (redis) => {
      const { clock, keys, one, other } = sellers(redis);
      for (let i = 0; i < 3; i++) (await one.reserveRequest(REF, '00:00', null)).answered();
      await one.quota.giveBackAll();
      await one.pauseUntil(REF, RESET, 'daily-limit');

      clock.now = RESET + 10;
      await other.assertNotPaused(REF);
      const reserved = await other.reserveWithinLimit(REF, '00:00', null);
      reserved.answered();
      await other.quota.giveBackAll();

      // The API's day, not --daily-reset's (00:00): the budget counts it, `status` reads it.
      expect({ day: reserved.day, window: reserved.window, windowStart: reserved.windowStart }).toEqual({
        day: 1,
        window: 1,
        windowStart: RESET,
      });
      expect(await redis.get(keys.requestsUsed(REF, RESET))).toBe('1');
      expect((await other.status(REF, '00:00')).requestsToday).toBe(1);
    });
  });

  it("reads, while the next 429's pause lasts, the day it ends: begun at the reset before, past 00:00", async () => {
    await withRedis(async (redis) => {
      const { clock, keys, one, other } = sellers(redis);
      const DAY_MS = 24 * 3600 * 1000;
      await one.pauseUntil(REF, RESET, 'daily-limit');
      clock.now = RESET + 10;
      await other.assertNotPaused(REF);
      for (let i = 0; i < 2; i++) (await other.reserveWithinLimit(REF, '00:00', null)).answered();
      await other.quota.giveBackAll();

      // The next day's 429, just before 15:30 the day after: paused until then.
      clock.now = RESET + DAY_MS - 1000;
      await other.pauseUntil(REF, RESET + DAY_MS, 'daily-limit');
      const reader = new SellerState(redis, keys, () => clock.now);
      expect((await reader.status(REF, '00:00')).requestsToday).toBe(2);
    });
  });

  it('holds a second request past the learned limit until the first is answered, and sends neither past a 429', async () => {
    await withRedis(async (redis) => {
      const { keys, one } = sellers(redis);
      // A 429 of an earlier window, after 2 requests accepted in it: the limit is 2.
      const earlier = { windowStart: RESET - 3_600_000, accepted: 2, refused: true, at: RESET };
      expect(await learnLimit(redis, keys, REF, earlier)).toBe(2);
      await one.assertNotPaused(REF);
      const numbers: number[] = [];
      for (let i = 0; i < 2; i++) {
        const reserved = await one.reserveWithinLimit(REF, '00:00', null);
        numbers.push(reserved.window);
        reserved.answered();
      }
      const probe = await one.reserveWithinLimit(REF, '00:00', null);
      let held = false;
      const waiting = one.reserveWithinLimit(REF, '00:00', null).then(
        () => 'sent',
        (error: unknown) => {
          held = true;
          return error;
        },
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(held).toBe(false);
      // The probe meets the 429: the request behind it is not sent, its number given back.
      one.pauseLocally(REF, new SellerPausedError('daily-limit', RESET));
      probe.answered();
      expect(await waiting).toBeInstanceOf(SellerPausedError);
      expect([...numbers, probe.window]).toEqual([1, 2, 3]);
      await one.quota.giveBackAll();
      expect((await one.status(REF, '00:00')).requestsToday).toBe(3);
    });
  });

  it('takes a chunk again just before the reset: it waits out the pause, not thrown back', async () => {
    await withRedis(async (redis) => {
      const { clock, one, other } = sellers(redis);
      await one.pauseUntil(REF, clock.now + 100, 'daily-limit');
      await expect(other.assertNotPaused(REF)).resolves.toEqual({ probeDue: false });
      await one.pauseUntil(REF, clock.now + 60_000, 'daily-limit');
      await expect(other.assertNotPaused(REF)).rejects.toBeInstanceOf(SellerPausedError);
    });
  });
});
