import { afterEach, describe, expect, it } from 'vitest';
import { RedisKeys } from '../../../src/runs/keys.js';
import { SellerState } from '../../../src/sellers/seller-state.js';
import { ApiUnreachableError, SellerPausedError } from '../../../src/sync/seller-pause.js';
import { removePrefix, uniquePrefix, withRedis } from '../support/redis-prefix.js';

const REF = '0123456789abcdef';
const BASE_URL = 'https://api.example.com/api/v1';
const rejected = () => new SellerPausedError('unauthorized', null);

/**
 * A worker's copy of a seller's pause, once another process lifted the mark in Redis: `resume`
 * after a 401, the next `run` or `cancel` after the API was out of reach.
 */
describe("a pause lifted by another process (the worker's copy of it)", () => {
  let prefix = '';
  afterEach(async () => {
    await removePrefix(prefix);
  });

  /** A worker's and another process's views of one seller, on one clock. */
  function processes(redis: Parameters<Parameters<typeof withRedis>[0]>[0]) {
    prefix = uniquePrefix();
    const clock = { now: 1_000_000 };
    const keys = new RedisKeys(prefix);
    const make = () => new SellerState(redis, keys, () => clock.now, { firstMs: 60_000, maxMs: 60_000 });
    return { worker: make(), other: make() };
  }

  it('a rejected key: stops the next chunk as soon as it is answered, and lets it go on once `resume` lifted the mark elsewhere', async () => {
    await withRedis(async (redis) => {
      const { worker, other } = processes(redis);
      // The 401 just came: Redis holds nothing yet (its chunk writes it next), the next chunk stops anyway.
      worker.pauseLocally(REF, rejected());
      await expect(worker.assertNotPaused(REF)).rejects.toThrow('the API key was rejected (401)');
      await worker.markAuthRejected(REF);
      await expect(worker.assertNotPaused(REF)).rejects.toThrow('the API key was rejected (401)');

      expect(await other.clearAuthRejected(REF)).toBe(true);

      expect(await worker.assertNotPaused(REF)).toEqual({ probeDue: false });
      expect(() => worker.assertNotPausedLocally(REF)).not.toThrow();
      expect((await other.status(REF, '00:00')).authRejected).toBe(false);
    });
  });

  it('an API out of reach: the worker goes on before its probe is due once another process lifted the mark', async () => {
    await withRedis(async (redis) => {
      const { worker, other } = processes(redis);
      await worker.markUnreachable(
        REF,
        new ApiUnreachableError(BASE_URL, 'connection refused (ECONNREFUSED)', 0),
      );
      await expect(worker.assertNotPaused(REF)).rejects.toThrow(`cannot reach ${BASE_URL}`);

      expect(await other.clearUnreachable(REF)).toBe(true);

      expect(await worker.assertNotPaused(REF)).toEqual({ probeDue: false });
      expect((await other.status(REF, '00:00')).unreachable).toBeNull();
    });
  });

  it("a run's daily budget: the worker goes on once that run's cancel lifted it, and a daily limit's pause stays", async () => {
    await withRedis(async (redis) => {
      const { worker, other } = processes(redis);
      const dayEnd = 1_000_000 + 3_600_000;
      await worker.pauseUntil(REF, dayEnd, 'daily-budget', 'run-a');
      await expect(worker.assertNotPaused(REF)).rejects.toThrow('daily budget used up');
      expect((await other.status(REF, '00:00')).pausedByBudgetOf).toBe('run-a');

      expect(await other.clearBudgetPause(REF, 'run-b')).toBe(false);
      expect(await other.clearBudgetPause(REF, 'run-a')).toBe(true);

      expect(await worker.assertNotPaused(REF)).toEqual({ probeDue: false });
      expect(() => worker.assertNotPausedLocally(REF)).not.toThrow();

      // The API's own limit is no run's to lift.
      await worker.pauseUntil(REF, dayEnd, 'daily-limit');
      expect(await other.clearBudgetPause(REF, 'run-a')).toBe(false);
      await expect(worker.assertNotPaused(REF)).rejects.toThrow('daily request limit reached');
    });
  });
});
