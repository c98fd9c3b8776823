import { bullmq } from '../cjs-packages.js';
import { type CancelDeps, cancelRun, endCancelled } from './cancel-run.js';
import { queueOptions } from './queue-options.js';
import { queueNameOf } from './run-queue.js';

/**
 * Once its process stops serving it, nobody takes the chunks of a run with a queue of its own.
 * Not ended yet (interrupted, or a pause it did not wait out), it is cancelled: a dry run wrote
 * nothing, and run again it plans anew. Then its queue is removed: jobs, counters, events.
 */
export async function closeOwnQueue(deps: CancelDeps, runId: string): Promise<void> {
  const run = await deps.runs.get(runId);
  if (!run?.ownQueue) return;
  const cancelled = run.state === 'queued' || run.state === 'running' ? await cancelRun(deps, runId) : null;
  const queue = new (bullmq().Queue)(queueNameOf(deps.keys, run), queueOptions(deps.redis, deps.prefix));
  queue.on('error', () => undefined);
  try {
    // Forced: a chunk still marked active is no other process's, and this one serves it no more
    // (its workers closed, or their close ran out of time).
    await queue.obliterate({ force: true });
    // Left by a daily-limit pause (queue.rateLimit), until the reset: not one of the queue's keys.
    await queue.removeRateLimitKey();
  } finally {
    await queue.close();
  }
  // Such a chunk will settle nothing: the cancel ends the run without it.
  const after = cancelled?.kind === 'ending' ? await deps.runs.get(runId) : null;
  if (after) await endCancelled(deps, after);
}
