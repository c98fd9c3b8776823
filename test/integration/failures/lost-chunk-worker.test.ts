import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queueOptions } from '../../../src/queue/queue-options.js';
import { type ChunkJobData, chunkJobId } from '../../../src/runs/chunk-job.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import { RunStore } from '../../../src/runs/run-store.js';
import { gate } from '../../support/gate.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { TEST_REDIS_URL } from '../support/redis-prefix.js';
import { eventually, runDone, useFailureRig } from './support/rig.js';

/** Two chunks of 100 rows and one of 50 (DEFAULT_CHUNK_SIZE). */
const ROWS = 250;
/** A short job lock, so that a run left idle is looked at within the test (lock + stall check). */
const LOCK_MS = 1500;
/** The steps before the loss happen in a moment: waited for up to this (only a guard against a hang). */
const SETUP = { timeoutMs: 30_000 };
const LOST = /^not sent: its queued chunk was lost from Redis \(.*\); a re-run of the source sends it$/;

/**
 * A fleet (docs/many-sellers.md): `import` from cron, long-running `worker` processes, and no `run`
 * waiting on the run. A chunk job Redis loses there (a failover, a partial flush) must not leave its
 * run `running` for good (status, run order, `--notify`'s `ended`): the workers serving its seller
 * look at it once it has been idle a lock and a stall check, and end it as `run` would.
 */
describe('a run of a fleet whose queued chunk Redis lost', () => {
  let writes: () => Promise<unknown> | undefined;
  let held = 0;
  const rig = useFailureRig(() => ({
    hold: (request) => {
      if (request.method === 'GET') return undefined;
      held++;
      return writes();
    },
  }));
  let redis: Redis;
  let keys: RedisKeys;
  let runs: RunStore;
  beforeEach(() => {
    writes = () => undefined;
    held = 0;
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    keys = new RedisKeys(rig.prefix);
    runs = new RunStore(redis, keys);
  });
  afterEach(async () => {
    await redis.quit();
  });

  const env = () => rig.env(undefined, { CATALOG_SYNC_LOCK_MS: String(LOCK_MS) });

  it('is ended by the worker once idle: the lost chunk’s rows failed, not sent; status says done', {
    timeout: 90_000,
  }, async () => {
    const writesGate = gate();
    writes = () => writesGate.promise;
    const imported = await rig.cli(['import', await rig.csv('catalog.csv', catalogRows(ROWS))], env());
    expect(imported.code, imported.stderr).toBe(0);
    const runId = runIdOf(imported.stdout);
    const run = await runs.get(runId);
    const queue = new Queue<ChunkJobData>(
      keys.sellerQueue(run?.sellerRef ?? ''),
      queueOptions(redis, rig.prefix),
    );
    try {
      // Two chunks at once (chunksAtOnceFor): the third waits while their writes are held.
      rig.spawn(['worker', '--concurrency', '8'], env());
      await eventually('a write held', () => (held > 0 ? true : undefined), SETUP);
      const lastChunk = chunkJobId(runId, 2);
      expect(await queue.getJobState(lastChunk)).toBe('waiting');
      // Redis loses it (BullMQ's own removal: the job, its data and its place in the queue).
      expect(await queue.remove(lastChunk)).toBe(1);
      writesGate.open();
    } finally {
      writesGate.open();
      await queue.close();
    }

    // No `run` waits on it: the worker alone ends it.
    const status = await runDone(rig, runId);
    expect(status).toMatchObject({ state: 'done', total: ROWS, settled: ROWS });
    expect(status.counts).toMatchObject({ created: 200, failed: 50 });
    const outcomes = new Map<number, { action: string; status: string; error?: string }>();
    for await (const outcome of runs.outcomes(runId)) outcomes.set(outcome.row ?? 0, outcome);
    expect(outcomes.size).toBe(ROWS);
    for (let row = 201; row <= ROWS; row++) {
      expect(outcomes.get(row), `row ${row}`).toMatchObject({ action: 'skipped', status: 'failed' });
      expect(outcomes.get(row)?.error).toMatch(LOST);
    }
    expect(rig.sandbox.products('seller-a')).toHaveLength(200);
  });
});
