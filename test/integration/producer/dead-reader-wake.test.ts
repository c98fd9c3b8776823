import { DelayedError, Queue, Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/logger.js';
import { cancelRun } from '../../../src/queue/cancel-run.js';
import { enqueueRun } from '../../../src/queue/enqueue-run.js';
import { finaliseIfSettled } from '../../../src/queue/finalise.js';
import { queueOptions } from '../../../src/queue/queue-options.js';
import { RunOrder, runWaitedFor, wakeNextRun } from '../../../src/queue/run-order.js';
import { addChunk, type ChunkJobData } from '../../../src/runs/chunk-job.js';
import type { RunRecord } from '../../../src/runs/run-store.js';
import { countingSource, enqueueDeps, RUN_SPEC, upsert, useProducerRig } from './support/rig.js';

/**
 * A run of a changed file (B) ends the earlier run of the same address (A) whose reader was killed
 * (kill -9: its mark set once, never renewed, and its listing among the seller's runs being read
 * left to expire a minute later). B's chunks wait for A's, then go on the moment A ends: its end
 * wakes them (docs/operations.md), never the one-minute backstop (RUN_ORDER_RECHECK_MS).
 */
describe('a run behind an earlier run of its address whose reader was killed', () => {
  const rig = useProducerRig();
  const A_SPEC = { ...RUN_SPEC, sourceId: 'catalog-v1', sourceAddressId: 'catalog.csv' };
  const B_SPEC = { ...RUN_SPEC, sourceId: 'catalog-v2', sourceAddressId: 'catalog.csv' };
  const ROWS = 30;
  const BEAT_MS = 50;
  const order = () => ({ redis: rig.redis, keys: rig.keys, now: Date.now });
  const deps = () => enqueueDeps(rig, { producingBeatMs: BEAT_MS });

  /** What `run` A killed after it queued three chunks of ten leaves behind. */
  async function killedRun(queue: Queue<ChunkJobData>): Promise<RunRecord> {
    const a = await rig.runs.create(A_SPEC);
    const ref = A_SPEC.sellerRef;
    await rig.redis.set(rig.keys.activeRun(ref, 'catalog-v1'), a.id);
    await rig.redis.set(rig.keys.lastRunOfSource(ref, 'catalog.csv'), a.id);
    // Its last beat: the mark, and its listing among the runs being read for six beats of 10 s.
    await rig.redis.set(rig.keys.producing(a.id), '3', 'PX', 60_000);
    await rig.redis.zadd(rig.keys.sellerReading(ref), Date.now() + 60_000, a.id);
    for (let chunk = 0; chunk < ROWS / 10; chunk++) {
      const rows = Array.from({ length: 10 }, (_, i) => upsert(chunk * 10 + i + 1));
      await addChunk(queue, { runId: a.id, chunk, rows });
    }
    await rig.runs.setTotalSoFar(a.id, ROWS);
    return a;
  }

  it('waits for nothing of A once B has ended it (no chunk of A was under way)', async () => {
    const queue = new Queue<ChunkJobData>(
      rig.keys.sellerQueue(RUN_SPEC.sellerRef),
      queueOptions(rig.redis, rig.prefix),
    );
    try {
      const a = await killedRun(queue);

      const b = await enqueueRun(deps(), B_SPEC, countingSource(ROWS).rows());

      expect(b.kind).toBe('queued');
      expect(await rig.runs.get(a.id)).toMatchObject({ state: 'done', aborted: true });
      const bId = b.kind === 'queued' ? b.run.id : '';
      expect(await runWaitedFor(order(), RUN_SPEC.sellerRef, bId)).toBeNull();
    } finally {
      await queue.close();
    }
  });

  it("wakes B's chunks put back behind A's chunk under way as that chunk ends A", async () => {
    const queueName = rig.keys.sellerQueue(RUN_SPEC.sellerRef);
    const queue = new Queue<ChunkJobData>(queueName, queueOptions(rig.redis, rig.prefix));
    const worker = new Worker<ChunkJobData>(queueName, null, {
      connection: rig.redis,
      prefix: rig.prefix,
      autorun: false,
    });
    try {
      const a = await killedRun(queue);
      // A live worker holds A's first chunk as B comes.
      const held = await worker.getNextJob('a-token');
      expect(held?.data).toMatchObject({ runId: a.id, chunk: 0 });

      const b = await enqueueRun(deps(), B_SPEC, countingSource(ROWS).rows());
      const bId = b.kind === 'queued' ? b.run.id : '';
      expect(await rig.runs.get(a.id)).toMatchObject({ state: 'queued', settled: 20 });

      // B's first chunk is taken and put back: A's chunk is under way.
      const first = await worker.getNextJob('b-token');
      expect(first?.data.runId).toBe(bId);
      const turn = new RunOrder({ ...order(), logger: silentLogger }).awaitTurn(queue, first!, 'b-token', {
        id: bId,
        sellerRef: RUN_SPEC.sellerRef,
      });
      await expect(turn).rejects.toBeInstanceOf(DelayedError);
      expect(await queue.getJobState(first!.id!)).toBe('delayed');

      // A's chunk ends: its rows settle, A ends, and the chunk's end wakes the next run (seller-workers.ts).
      await rig.runs.settle(
        a.id,
        held!.data.rows.map((row) => ({
          row: row.row,
          key: row.key,
          action: 'create' as const,
          productId: `p-${row.row}`,
          status: 'ok' as const,
          error: '',
        })),
      );
      expect(await finaliseIfSettled(deps(), a.id)).toBe(true);
      await held!.moveToCompleted('ok', 'a-token', false);
      await wakeNextRun(order(), RUN_SPEC.sellerRef, queue);

      expect(await queue.getJobState(first!.id!)).toBe('waiting');
    } finally {
      await worker.close(true);
      await queue.close();
    }
  });

  it('waits for nothing of A once `cancel` has ended it', async () => {
    const queue = new Queue<ChunkJobData>(
      rig.keys.sellerQueue(RUN_SPEC.sellerRef),
      queueOptions(rig.redis, rig.prefix),
    );
    try {
      const a = await killedRun(queue);
      // Another file of the seller's: it leaves A be.
      const other = { ...RUN_SPEC, sourceId: 'prices-v1', sourceAddressId: 'prices.csv' };
      const b = await enqueueRun(deps(), other, countingSource(ROWS).rows());
      const bId = b.kind === 'queued' ? b.run.id : '';
      expect(await runWaitedFor(order(), RUN_SPEC.sellerRef, bId)).toBe(a.id);
      // Its mark gone as a dead reader's goes: `cancel` looks no longer.
      await rig.redis.del(rig.keys.producing(a.id));

      expect((await cancelRun(deps(), a.id)).kind).toBe('cancelled');

      expect(await runWaitedFor(order(), RUN_SPEC.sellerRef, bId)).toBeNull();
    } finally {
      await queue.close();
    }
  });
});
