import { DelayedError, Queue, Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/logger.js';
import { queueOptions } from '../../../src/queue/queue-options.js';
import { RunOrder, runWaitedFor, wakeNextRun } from '../../../src/queue/run-order.js';
import { addChunk, type ChunkJobData } from '../../../src/runs/chunk-job.js';
import { RUN_SPEC, upsert, useProducerRig } from './support/rig.js';

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 5));

/**
 * An approval's chunks go in the seller's run order when they were queued: a run created after them
 * waits for them (its list read sees the approved writes), a run created before them does not (it
 * never waited for them, and a process that found it first in line goes on remembering so).
 */
describe('an approval queued between two runs of the seller', () => {
  const rig = useProducerRig();
  const ref = RUN_SPEC.sellerRef;
  const order = () => ({ redis: rig.redis, keys: rig.keys, now: Date.now });

  it('holds back the run created after it, not the one created before, and its end wakes the later run', async () => {
    const queueName = rig.keys.sellerQueue(ref);
    const queue = new Queue<ChunkJobData>(queueName, queueOptions(rig.redis, rig.prefix));
    const worker = new Worker<ChunkJobData>(queueName, null, {
      connection: rig.redis,
      prefix: rig.prefix,
      autorun: false,
    });
    try {
      const approved = await rig.runs.create(RUN_SPEC);
      await tick();
      const before = await rig.runs.create(RUN_SPEC);
      await tick();
      await addChunk(queue, {
        runId: approved.id,
        chunk: 0,
        rows: [upsert(1)],
        phase: 'approve',
        round: 1,
      });
      await tick();
      const after = await rig.runs.create(RUN_SPEC);
      await addChunk(queue, { runId: after.id, chunk: 0, rows: [upsert(2)] });

      expect(await runWaitedFor(order(), ref, before.id)).toBeNull();
      expect(await runWaitedFor(order(), ref, after.id)).toBe(approved.id);

      // The later run's chunk is taken and put back behind the approval's.
      const runOrder = new RunOrder({ ...order(), logger: silentLogger });
      const both = [await worker.getNextJob('token'), await worker.getNextJob('token')];
      const approval = both.find((job) => job?.data.phase === 'approve');
      const taken = both.find((job) => job?.data.runId === after.id);
      expect(approval?.data.runId).toBe(approved.id);
      const turn = runOrder.awaitTurn(queue, taken!, 'token', { id: after.id, sellerRef: ref });
      await expect(turn).rejects.toBeInstanceOf(DelayedError);
      // Not woken while the approval's chunk is still under way.
      await wakeNextRun(order(), ref, queue);
      expect(await queue.getJobState(taken!.id!)).toBe('delayed');

      // The approval's chunk ends: the later run goes.
      await approval!.moveToCompleted('ok', 'token', false);
      await wakeNextRun(order(), ref, queue);
      expect(await queue.getJobState(taken!.id!)).toBe('waiting');
      expect(await runWaitedFor(order(), ref, after.id)).toBeNull();
    } finally {
      await worker.close(true);
      await queue.close();
    }
  });
});
