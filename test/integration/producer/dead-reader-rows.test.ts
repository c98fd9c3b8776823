import { Queue, Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import type { RowOutcome } from '../../../src/interfaces.js';
import type { RunNotifier } from '../../../src/notify/notifier.js';
import { enqueueRun } from '../../../src/queue/enqueue-run.js';
import { finaliseIfSettled } from '../../../src/queue/finalise.js';
import { queueOptions } from '../../../src/queue/queue-options.js';
import { addChunk, type ChunkJobData } from '../../../src/runs/chunk-job.js';
import type { RunRecord } from '../../../src/runs/run-store.js';
import { countingSource, enqueueDeps, RUN_SPEC, upsert, useProducerRig } from './support/rig.js';

/**
 * A re-import of a source whose earlier run's reader died half way (killed: its mark set once,
 * never renewed) ends that run as a broken source ends its own: never `done` while a row it read is
 * open. Its queued chunks are taken out and their rows settled not sent, saying its reader stopped;
 * a chunk a worker holds is left to finish, and the run ends once that chunk's rows settle.
 */
describe("a re-import's end of an earlier run whose reader died", () => {
  const rig = useProducerRig();
  const SOURCED = { ...RUN_SPEC, sourceId: 'feed-1' };
  const ROWS = 30;

  /** What a producer killed after it queued three chunks of ten leaves: claim, mark set once, chunks. */
  async function deadReaderRun(queue: Queue<ChunkJobData>): Promise<RunRecord> {
    const dead = await rig.runs.create(SOURCED);
    await rig.redis.set(rig.keys.activeRun(SOURCED.sellerRef, 'feed-1'), dead.id);
    await rig.redis.set(rig.keys.producing(dead.id), '7', 'PX', 60_000);
    for (let chunk = 0; chunk < ROWS / 10; chunk++) {
      const rows = Array.from({ length: 10 }, (_, i) => upsert(chunk * 10 + i + 1));
      await addChunk(queue, { runId: dead.id, chunk, rows });
    }
    await rig.runs.setTotalSoFar(dead.id, ROWS);
    return dead;
  }

  async function outcomesOf(runId: string): Promise<RowOutcome[]> {
    const found: RowOutcome[] = [];
    for await (const outcome of rig.runs.outcomes(runId)) found.push(outcome);
    return found.sort((a, b) => (a.row ?? 0) - (b.row ?? 0));
  }

  const told: string[] = [];
  const notifier = {
    notifyRun: async (event: string, run: RunRecord) => {
      told.push(`${event} ${run.id}`);
    },
  } as unknown as RunNotifier;
  const deps = () => enqueueDeps(rig, { producingBeatMs: 50, notifier });

  it('is not done while a chunk a worker holds is open; its queued rows settle not sent, the last settle ends it', async () => {
    told.length = 0;
    const queueName = rig.keys.sellerQueue(SOURCED.sellerRef);
    const queue = new Queue<ChunkJobData>(queueName, queueOptions(rig.redis, rig.prefix));
    const worker = new Worker<ChunkJobData>(queueName, null, {
      connection: rig.redis,
      prefix: rig.prefix,
      autorun: false,
    });
    try {
      const dead = await deadReaderRun(queue);
      // A live worker holds the first chunk (rows 1-10) as the re-import comes.
      const held = await worker.getNextJob('a-live-worker');
      expect(held?.data.chunk).toBe(0);

      const rerun = await enqueueRun(deps(), SOURCED, countingSource(ROWS).rows());

      expect(rerun.kind).toBe('queued');
      const ending = await rig.runs.get(dead.id);
      expect(
        ending?.state === 'done' && (ending.settled ?? 0) < ending.total,
        `done with ${ending?.settled} of ${ending?.total} rows settled`,
      ).toBe(false);
      expect(ending).toMatchObject({ state: 'queued', aborted: false, settled: 20 });
      expect(ending?.endingEarly).toMatch(/its process stopped before the source was read to the end/);
      expect(told).toEqual([]);
      // None of its chunks is left waiting: the re-run's own are all that wait.
      const waiting = await queue.getJobs(['wait', 'prioritized', 'delayed']);
      expect(waiting.filter((job) => job.data.runId === dead.id)).toEqual([]);

      // The worker settles its chunk's rows (it sent them) and ends the run, as a chunk does.
      await rig.runs.settle(
        dead.id,
        (held?.data.rows ?? []).map((row) => ({
          row: row.row,
          key: row.key,
          action: 'create',
          productId: `p-${row.row}`,
          status: 'ok',
          error: '',
        })),
      );
      expect(await finaliseIfSettled({ ...deps() }, dead.id)).toBe(true);

      const ended = await rig.runs.get(dead.id);
      expect(ended).toMatchObject({ state: 'done', aborted: true, settled: ROWS, total: ROWS });
      expect(ended?.endedEarly).toMatch(/its process stopped before the source was read to the end/);
      expect(told).toEqual([`ended ${dead.id}`]);
      const outcomes = await outcomesOf(dead.id);
      expect(outcomes.map((o) => o.row)).toEqual(Array.from({ length: ROWS }, (_, i) => i + 1));
      for (const outcome of outcomes.slice(10)) {
        expect(outcome).toMatchObject({ action: 'skipped', status: 'failed' });
        expect(outcome.error).toMatch(/^not sent: the process reading the source stopped/);
      }
    } finally {
      await worker.close(true);
      await queue.close();
    }
  });

  it('ends it at once when no chunk of it is under way: every row it queued settled not sent', async () => {
    told.length = 0;
    const queue = new Queue<ChunkJobData>(
      rig.keys.sellerQueue(SOURCED.sellerRef),
      queueOptions(rig.redis, rig.prefix),
    );
    try {
      const dead = await deadReaderRun(queue);

      expect((await enqueueRun(deps(), SOURCED, countingSource(ROWS).rows())).kind).toBe('queued');

      expect(await rig.runs.get(dead.id)).toMatchObject({
        state: 'done',
        aborted: true,
        settled: ROWS,
        total: ROWS,
      });
      expect(told).toEqual([`ended ${dead.id}`]);
      const outcomes = await outcomesOf(dead.id);
      expect(outcomes).toHaveLength(ROWS);
      expect(new Set(outcomes.map((o) => o.error))).toEqual(
        new Set([
          'not sent: the process reading the source stopped before its turn (a later run reads it anew)',
        ]),
      );
    } finally {
      await queue.close();
    }
  });
});
