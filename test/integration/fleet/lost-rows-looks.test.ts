import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FleetLostRows } from '../../../src/queue/fleet-lost-rows.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import { RunStore } from '../../../src/runs/run-store.js';
import { removePrefix, TEST_REDIS_URL, uniquePrefix } from '../support/redis-prefix.js';

// The look itself (lost-chunks.ts) is tested with real chunks in failures/lost-chunk*.test.ts;
// here only when the workers of a fleet take it, and how many of them: a look that counts.

const SELLER = 'ref-lost-rows';
const IDLE_MS = 1000;

describe('the workers of a fleet looking at their sellers’ idle runs', () => {
  let prefix: string;
  let redis: Redis;
  let keys: RedisKeys;
  let clock: number;
  let pausedUntil: number | null;
  const looked = vi.fn(async (_deps: unknown, _runId: string) => 0);

  beforeEach(() => {
    prefix = uniquePrefix();
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    keys = new RedisKeys(prefix);
    clock = 1_000_000;
    pausedUntil = null;
    looked.mockClear();
  });

  afterEach(async () => {
    await redis.quit();
    await removePrefix(prefix);
  });

  /** A worker serving SELLER, on the test's clock. */
  function worker(): FleetLostRows {
    const deps = {
      redis,
      commands: redis,
      keys,
      runs: new RunStore(redis, keys),
      prefix,
      sellers: {
        status: async () => ({
          pausedUntil,
          authRejected: false,
          requestsToday: 0,
          requestsReserved: 0,
          unreachable: null,
          served: true,
        }),
      },
      logger: { warn: vi.fn() } as never,
      now: () => clock,
    };
    return new FleetLostRows(deps, () => [SELLER], IDLE_MS, looked);
  }

  /** A run of SELLER as its record and its seller's index hold it (only what the watch reads). */
  async function run(id: string, at: number, fields: Record<string, string | number>): Promise<void> {
    await redis.zadd(keys.sellerRuns(SELLER), at, id);
    await redis.hset(keys.run(id), fields);
  }

  it('looks at an idle open run once across two workers, not at ended or moving runs', async () => {
    await run('r1-done', 1, { state: 'done', settled: 5, total: 5 });
    await run('r2-idle', 2, { state: 'running', settled: 3, total: 9 });
    await run('r3-moving', 3, { state: 'running', settled: 0, total: 9 });
    const [a, b] = [worker(), worker()];
    let settled = 0;
    /** Both workers read, the clock `ms` on, r3 having settled a row more. */
    const readAfter = async (ms: number) => {
      clock += ms;
      await redis.hset(keys.run('r3-moving'), 'settled', ++settled);
      await a.look();
      await b.look();
    };
    await readAfter(0);
    await readAfter(IDLE_MS / 2);
    expect(looked).not.toHaveBeenCalled();
    await readAfter(IDLE_MS / 2);
    // Idle for IDLE_MS: one of the two looks; the other finds the mark at that progress.
    expect(looked.mock.calls.map(([, id]) => id)).toEqual(['r2-idle']);
    // Still idle: the next look is twice as late, by either.
    await readAfter(IDLE_MS);
    expect(looked).toHaveBeenCalledTimes(1);
    // The mark lasts until then in Redis' time, not the test's clock: it has run out.
    expect(await redis.pttl(keys.lostRowsLook('r2-idle'))).toBeGreaterThan(0);
    await redis.del(keys.lostRowsLook('r2-idle'));
    await readAfter(IDLE_MS);
    expect(looked.mock.calls.map(([, id]) => id)).toEqual(['r2-idle', 'r2-idle']);
  });

  it('does not look while the seller is paused; looks at the first read after the pause lifts', async () => {
    await run('r1-paused', 1, { state: 'queued', settled: 0, total: 100 });
    const a = worker();
    await a.look();
    pausedUntil = clock + 3_600_000;
    clock += 10 * IDLE_MS;
    await a.look();
    clock += 10 * IDLE_MS;
    await a.look();
    expect(looked).not.toHaveBeenCalled();
    pausedUntil = null;
    await a.look();
    expect(looked.mock.calls.map(([, id]) => id)).toEqual(['r1-paused']);
  });

  it('watches a held run again once approved, and a run created after the others ended', async () => {
    await run('r1-held', 1, { state: 'held', settled: 9, total: 9 });
    await run('r2-done', 2, { state: 'done', settled: 9, total: 9 });
    const a = worker();
    await a.look();
    clock += 2 * IDLE_MS;
    await a.look();
    expect(looked).not.toHaveBeenCalled();
    await redis.hset(keys.run('r1-held'), 'state', 'running');
    await run('r3-new', 3, { state: 'running', settled: 1, total: 9 });
    await a.look();
    clock += IDLE_MS;
    await a.look();
    expect(looked.mock.calls.map(([, id]) => id).sort()).toEqual(['r1-held', 'r3-new']);
  });
});
