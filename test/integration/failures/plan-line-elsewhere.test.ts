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
import { eventually, useFailureRig } from './support/rig.js';

/** The steps before the handover happen in a moment: waited for up to this (only a guard against a hang). */
const SETUP = { timeoutMs: 30_000 };
const PLAN = /^plan {6}up to \d+ requests; the daily limit is not known \(--daily-budget N tells it\)$/gm;

/**
 * Two processes serve a seller's queue (a `worker`, or an earlier `run` still writing): the first
 * chunk of a `run` may be taken by the other one, which reads the list and logs the run's plan. The
 * `run` that created the run must still print its plan, once, on its own output (docs/running.md:
 * "Before its first write every run prints … its plan"): cron keeps each job's output apart.
 */
describe('a run whose first chunk another process takes', () => {
  const writesGate = { current: gate() };
  let held = 0;
  const rig = useFailureRig(() => ({
    hold: (request) => {
      if (request.method === 'GET') return undefined;
      held++;
      return writesGate.current.promise;
    },
  }));
  let redis: Redis;
  let runs: RunStore;
  let keys: RedisKeys;
  beforeEach(() => {
    writesGate.current = gate();
    held = 0;
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    keys = new RedisKeys(rig.prefix);
    runs = new RunStore(redis, keys);
  });
  afterEach(async () => {
    writesGate.current.open();
    await redis.quit();
  });

  it('prints its plan line once on its own stdout; the worker that read the list logs it too', {
    timeout: 90_000,
  }, async () => {
    const env = rig.env(undefined, { LOG_LEVEL: 'info', CATALOG_SYNC_LOCK_MS: '2000' });
    // An earlier run of the seller (another file), written by a `worker` whose writes are held.
    const worker = rig.spawn(['worker'], env);
    const imported = await rig.cli(['import', await rig.csv('earlier.csv', catalogRows(10))], env);
    expect(imported.code, imported.stderr).toBe(0);
    const earlier = runIdOf(imported.stdout);
    await eventually('a write of the earlier run held', () => (held > 0 ? true : undefined), SETUP);

    // The `run`: its one chunk waits behind the earlier run (run-order.ts), put back among the delayed.
    const run = rig.spawn(['run', await rig.csv('later.csv', catalogRows(20, 501))], env);
    const runId = await eventually(
      'the later run',
      async () => {
        const latest = await runs.latestId();
        return latest && latest !== earlier ? latest : undefined;
      },
      SETUP,
    );
    const run0 = await runs.get(runId);
    if (!run0) throw new Error(`no run ${runId}`);
    const queue = new Queue<ChunkJobData>(keys.sellerQueue(run0.sellerRef), queueOptions(redis, rig.prefix));
    try {
      await eventually(
        'the later run read and its chunk put back behind the earlier one',
        async () => {
          const produced = (await runs.get(runId))?.produced;
          const state = await queue.getJobState(chunkJobId(runId, 0));
          return produced && state === 'delayed' ? true : undefined;
        },
        SETUP,
      );
      // The `run` stands still (as a busy process would): the worker is the one to take its chunk
      // once the earlier run ends, read the list and say the plan.
      run.process.kill('SIGSTOP');
      try {
        writesGate.current.open();
        await eventually(
          'the later run written by the worker',
          async () => ((await runs.get(runId))?.state === 'done' ? true : undefined),
          { timeoutMs: 60_000, intervalMs: 200 },
        );
      } finally {
        run.process.kill('SIGCONT');
      }
      expect(await run.exited, run.stderr()).toEqual({ code: 0, signal: null });
    } finally {
      await queue.close();
    }

    // The worker took the chunk: its log says the run started, with the plan.
    expect(worker.stderr()).toContain(`"msg":"run ${runId} started"`);
    expect(worker.stderr()).toMatch(/"plan":"plan {6}up to /);
    // And the `run` printed it itself, once, before its summary.
    const out = run.stdout();
    expect(out.match(PLAN), out).toHaveLength(1);
    expect(out.search(PLAN)).toBeLessThan(out.indexOf(`run ${runId}:`));
    expect(rig.sandbox.products('seller-a')).toHaveLength(30);
  });
});
