import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readCommonConfig } from '../../../src/config.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import { RunStore } from '../../../src/runs/run-store.js';
import { DailyLimitError, ServerError } from '../../../src/seller-api/index.js';
import { extendLock, tryLock } from '../../../src/sync/redis-lock.js';
import {
  ensureSnapshot,
  SNAPSHOT_FAILED,
  type SnapshotDeps,
  SnapshotError,
} from '../../../src/sync/snapshot.js';
import { gate } from '../../support/gate.js';
import { removePrefix, TEST_REDIS_URL, uniquePrefix } from '../support/redis-prefix.js';

const RUN_ID = 'snapshot-run';

/** The poll between two looks at the snapshot, injected: a few milliseconds, never the real 200. */
const quickSleep = () => new Promise<void>((resolve) => setTimeout(resolve, 2));

let prefix = '';
let redis: Redis;
let deps: SnapshotDeps;

beforeEach(() => {
  prefix = uniquePrefix();
  redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
  const keys = new RedisKeys(prefix);
  deps = { redis, keys, runs: new RunStore(redis, keys), sleep: quickSleep };
});

afterEach(async () => {
  await redis.quit();
  await removePrefix(prefix);
});

/** A product list read that counts its calls and takes `ms` (or until `until` resolves). */
function countingLoad(options: { ms?: number; until?: Promise<void>; started?: () => void } = {}) {
  const load = Object.assign(
    async () => {
      load.calls++;
      options.started?.();
      if (options.until) await options.until;
      else await new Promise((resolve) => setTimeout(resolve, options.ms ?? 30));
    },
    { calls: 0 },
  );
  return load;
}

describe('ensureSnapshot, when two workers need the same run’s product list', () => {
  it('reads the list once when both ask at the same moment', async () => {
    const load = countingLoad({ ms: 40 });

    await Promise.all([ensureSnapshot(deps, RUN_ID, load), ensureSnapshot(deps, RUN_ID, load)]);

    expect(load.calls).toBe(1);
    expect(await redis.hget(deps.keys.run(RUN_ID), 'snapshotReady')).toBe('1');
    expect(await redis.exists(deps.keys.snapshotLock(RUN_ID))).toBe(0);
  });

  it('a chunk of the same process waits for that read to end, not for a poll', async () => {
    const loading = gate();
    const mayFinish = gate();
    // A poll here would never end: the second chunk must be woken by the read itself.
    const sleep = vi.fn(() => new Promise<void>(() => undefined));
    const local = { ...deps, sleep };
    const load = countingLoad({ until: mayFinish.promise, started: loading.open });
    const first = ensureSnapshot(local, RUN_ID, load);
    await loading.promise;
    const second = ensureSnapshot(local, RUN_ID, load);
    await new Promise((resolve) => setTimeout(resolve, 20));
    mayFinish.open();
    await Promise.all([first, second]);
    expect(load.calls).toBe(1);
    expect(sleep).not.toHaveBeenCalled();
  });

  it('holds the lock no longer than a job lock without renewal: a killed reader delays the others no longer than its chunks', async () => {
    const loading = gate();
    const mayFinish = gate();
    const reading = ensureSnapshot(
      deps,
      RUN_ID,
      countingLoad({ until: mayFinish.promise, started: loading.open }),
    );
    await loading.promise;

    const left = await redis.pttl(deps.keys.snapshotLock(RUN_ID));

    mayFinish.open();
    await reading;
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(readCommonConfig({}).lockDurationMs);
  });

  it('reads the list once when the first reader finishes just as the second takes the lock', async () => {
    const lockKey = deps.keys.snapshotLock(RUN_ID);
    const firstLoading = gate();
    const firstMayFinish = gate();
    const load = countingLoad({ until: firstMayFinish.promise, started: firstLoading.open });
    const first = ensureSnapshot(deps, RUN_ID, load);
    await firstLoading.promise;

    // The second worker looked (not ready yet) and reaches for the lock; its SET is held back until
    // the first has marked the list ready and let the lock go, so the SET finds the lock free.
    const secondReaching = gate();
    const secondLockResults: Array<string | null> = [];
    const secondRedis = new Proxy(redis, {
      get(target, property, receiver) {
        if (property !== 'set') return Reflect.get(target, property, receiver);
        return async (...args: Parameters<Redis['set']>) => {
          if (args[0] === lockKey) {
            secondReaching.open();
            await first;
          }
          const result = await (target.set as (...a: unknown[]) => Promise<string | null>)(...args);
          if (args[0] === lockKey) secondLockResults.push(result);
          return result;
        };
      },
    });
    const second = ensureSnapshot({ ...deps, redis: secondRedis }, RUN_ID, load);
    await secondReaching.promise;
    firstMayFinish.open();
    await Promise.all([first, second]);

    expect(secondLockResults[0]).toBe('OK');
    expect(load.calls).toBe(1);
  });

  it('reads the list no more once the API failed it: the other reader gets the recorded failure', async () => {
    const load = Object.assign(
      async () => {
        load.calls++;
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new ServerError({ method: 'GET', path: '/products?page=2', status: 503 });
      },
      { calls: 0 },
    );

    const results = await Promise.allSettled([
      ensureSnapshot(deps, RUN_ID, load),
      ensureSnapshot(deps, RUN_ID, load),
    ]);

    expect(load.calls).toBe(1);
    for (const result of results) {
      expect(result).toMatchObject({
        status: 'rejected',
        reason: expect.objectContaining({
          name: 'SnapshotError',
          message: "the seller's products could not be read: GET /products?page=2: 503",
        }),
      });
    }
    expect(await redis.hget(deps.keys.run(RUN_ID), SNAPSHOT_FAILED)).toMatch(/^the seller's products/);
    await expect(ensureSnapshot(deps, RUN_ID, load)).rejects.toBeInstanceOf(SnapshotError);
    expect(load.calls).toBe(1);
  });

  it('leaves the list to be read later when a pause stopped the read', async () => {
    const resetAt = new Date(Date.now() + 60_000);
    const limited = new DailyLimitError({ method: 'GET', path: '/products', status: 429 }, resetAt);
    await expect(
      ensureSnapshot(deps, RUN_ID, async () => {
        throw limited;
      }),
    ).rejects.toBe(limited);

    const load = countingLoad({ ms: 1 });
    await ensureSnapshot(deps, RUN_ID, load);
    expect(load.calls).toBe(1);
  });

  it('lets a second reader take over when the first failed on its side (not the API)', async () => {
    let calls = 0;
    const failingOnce = async () => {
      calls++;
      if (calls === 1) throw new Error('connection lost');
    };

    await expect(ensureSnapshot(deps, RUN_ID, failingOnce)).rejects.toThrow('connection lost');
    await ensureSnapshot(deps, RUN_ID, failingOnce);

    expect(calls).toBe(2);
    expect(await redis.hget(deps.keys.run(RUN_ID), 'snapshotReady')).toBe('1');
  });
});

describe('the snapshot lock’s keep-alive', () => {
  it('does not extend a lock that another token holds', async () => {
    const key = `${prefix}:lock`;
    await redis.set(key, 'another-token', 'PX', 1_000);

    expect(await extendLock(redis, key, 'my-token', 30_000)).toBe(false);
    expect(await redis.pttl(key)).toBeLessThanOrEqual(1_000);
    expect(await redis.get(key)).toBe('another-token');
  });

  it('extends the lock while it holds it', async () => {
    const key = `${prefix}:lock`;
    const lock = await tryLock(redis, key, { ttlMs: 2_000, renewEveryMs: 5 });
    expect(lock).not.toBeNull();
    await redis.pexpire(key, 100);

    await vi.waitFor(async () => expect(await redis.pttl(key)).toBeGreaterThan(1_000));
    await lock?.release();
    expect(await redis.exists(key)).toBe(0);
  });

  it('stops once another holds the lock, and neither extends nor releases that other’s lock', async () => {
    const key = `${prefix}:lock`;
    const lock = await tryLock(redis, key, { ttlMs: 2_000, renewEveryMs: 5 });
    // Our lock expired (a stalled process) and another worker took it.
    await redis.set(key, 'another-token', 'PX', 500);

    await vi.waitFor(() => expect(lock?.lost).toBe(true));
    expect(await redis.pttl(key)).toBeLessThanOrEqual(500);
    await lock?.release();
    expect(await redis.get(key)).toBe('another-token');
  });

  it('is not taken while another holds it', async () => {
    const key = `${prefix}:lock`;
    const first = await tryLock(redis, key, { ttlMs: 2_000 });
    expect(await tryLock(redis, key, { ttlMs: 2_000 })).toBeNull();
    await first?.release();
  });
});
