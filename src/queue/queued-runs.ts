import type { Queue } from 'bullmq';
import { runIdOfChunkJob } from '../runs/chunk-job.js';

// Where a run's chunks are until they settle (BullMQ 6: a paused queue keeps them in `wait`).
const QUEUED_STATES = ['wait', 'prioritized', 'delayed', 'active'] as const;

/**
 * The runs that still have chunks in a seller's queue, waiting (a paused queue keeps them in
 * `wait`) or in progress on a worker, oldest first (run ids start with their time). Job ids only:
 * a queue of 20,000 chunks is read without their rows.
 */
export async function runsInQueue(queue: Queue): Promise<string[]> {
  const jobIds = await queue.getRanges([...QUEUED_STATES], 0, -1, true);
  const runs = new Set<string>();
  for (const jobId of jobIds) {
    const runId = runIdOfChunkJob(jobId);
    if (runId) runs.add(runId);
  }
  return [...runs].sort();
}
