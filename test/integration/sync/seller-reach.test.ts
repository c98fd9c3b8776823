import { afterEach, describe, expect, it } from 'vitest';
import { RedisKeys } from '../../../src/runs/keys.js';
import { SellerState } from '../../../src/sellers/seller-state.js';
import { ApiUnreachableError, SellerPausedError } from '../../../src/sync/seller-pause.js';
import { removePrefix, uniquePrefix, withRedis } from '../support/redis-prefix.js';

const REF = '0123456789abcdef';
const BASE_URL = 'https://api.example.com/api/v1';
const refused = () => new ApiUnreachableError(BASE_URL, 'connection refused (ECONNREFUSED)', 0);

describe('a seller whose API is out of reach (shared state in Redis)', () => {
  let prefix = '';
  afterEach(async () => {
    await removePrefix(prefix);
  });

  /** Two processes' views of one seller, on one clock the test moves. */
  function sellers(redis: Parameters<Parameters<typeof withRedis>[0]>[0]) {
    prefix = uniquePrefix();
    const clock = { now: 1_000_000 };
    const keys = new RedisKeys(prefix);
    const backoff = { firstMs: 1000, maxMs: 3000 };
    const make = () => new SellerState(redis, keys, () => clock.now, backoff);
    return { clock, one: make(), other: make() };
  }

  it('sends nothing until the probe is due, on every process; the wait doubles per failed probe, up to the cap', async () => {
    await withRedis(async (redis) => {
      const { clock, one, other } = sellers(redis);

      const first = await one.markUnreachable(REF, refused());
      // A second chunk giving up during the same wait counts no second failure.
      const again = await other.markUnreachable(REF, refused());

      expect(first).toMatchObject({ fresh: true, record: { probes: 0, retryAt: clock.now + 1000 } });
      expect(again).toMatchObject({ fresh: false, record: first.record });
      await expect(other.assertNotPaused(REF)).rejects.toThrow(
        `cannot reach ${BASE_URL}: connection refused (ECONNREFUSED)`,
      );
      expect((await other.status(REF, '00:00')).unreachable).toMatchObject({
        cause: 'connection refused (ECONNREFUSED)',
        baseUrl: BASE_URL,
        since: clock.now,
      });

      clock.now += 1000;
      expect(await other.assertNotPaused(REF)).toEqual({ probeDue: true });
      const waits: number[] = [];
      for (let probe = 0; probe < 3; probe++) {
        const { record } = await other.markUnreachable(REF, refused());
        waits.push(record.retryAt - clock.now);
        clock.now = record.retryAt;
      }
      expect(waits).toEqual([2000, 3000, 3000]);
    });
  });

  it('is served again once a probe gets an answer: in Redis and in the process that had paused locally', async () => {
    await withRedis(async (redis) => {
      const { one, other } = sellers(redis);
      await one.markUnreachable(REF, refused());

      expect(await other.clearUnreachable(REF)).toBe(true);

      expect((await one.status(REF, '00:00')).unreachable).toBeNull();
      // `one` remembered the pause locally; the shared record is what counts once it is read again.
      expect(() => one.assertNotPausedLocally(REF)).toThrow(SellerPausedError);
      expect(await one.clearUnreachable(REF)).toBe(false);
      expect(await one.assertNotPaused(REF)).toEqual({ probeDue: false });
    });
  });
});
