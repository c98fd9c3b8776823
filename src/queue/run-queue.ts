import type { RedisKeys } from '../runs/keys.js';
import type { RunSpec } from '../runs/run-store.js';

/**
 * The spec `run` queues, to process it in its own process: a dry run's chunks get a queue of their own.
 *
 * Why: `run` serves its seller's queue (what cron calls when no worker runs: it goes on with the
 * rows that the seller's other runs left queued, docs/options.md, exit 6). A BullMQ worker takes a
 * queue's jobs in order, whoever's they are, and cannot pass one over; one it handed back would be
 * at the head of the queue again, for as long as no other worker takes it. Served from the seller's
 * queue, a dry run's process would take the writes of a run left queued (stopped by Ctrl-C, paused),
 * send them, and plan against what they wrote. In a queue of its own, its process takes its chunks
 * and nothing else, and no other process waits on them. An `import --dry-run` stays in the seller's
 * queue: the workers serve it, and what they do for it writes nothing either (the run is dry).
 */
export function inOwnQueueIfDry(spec: RunSpec): RunSpec {
  // No claim on the source: another run of it (an `import --dry-run`, in the seller's queue) is never
  // attached to, nor ended by it; two dry runs of a source each plan on their own.
  return spec.dryRun ? { ...spec, ownQueue: true, sourceId: null } : spec;
}

/** The queue a run's chunks are in: its own, or its seller's. */
export function queueNameOf(
  keys: RedisKeys,
  run: Pick<RunSpec, 'sellerRef' | 'ownQueue'> & { id: string },
): string {
  return run.ownQueue ? keys.ownRunQueue(run.sellerRef, run.id) : keys.sellerQueue(run.sellerRef);
}
