import type { Job } from 'bullmq';
import { settleDueUnsent } from '../missing/deactivations.js';
import type { ChunkJobData } from '../runs/chunk-job.js';
import { endIfFinalisationOver, type FinaliseDeps } from './finalise.js';

/** A deactivation a cancel kept from being sent: reported `deactivate`, `failed`, with this error. */
export const CANCELLED = 'cancelled';

/**
 * `cancel` of a run whose `--missing` deactivations are queued (its finalisation queued them, or an
 * `approve` of the run they were held with): the cancel took their jobs off the queue, so nothing
 * would settle them, and the run, whose end waits for an empty list of due deactivations
 * (finalise.ts endAfterDeactivations), stayed `running` for ever. Those no job in progress (`active`)
 * holds are settled not sent here; a job in progress sends and settles its own, as any chunk a
 * worker holds when its run is cancelled.
 */
export async function cancelDueDeactivations(
  deps: FinaliseDeps,
  runId: string,
  /** The run's jobs a worker may still hold: their deactivations are theirs to settle. */
  active: readonly Pick<Job<ChunkJobData>, 'data'>[],
): Promise<void> {
  const busy = new Set(active.flatMap((job) => (job.data.deactivate ?? []).map((item) => item.id)));
  await settleDueUnsent(deps, runId, busy, CANCELLED);
  await endIfFinalisationOver(deps, runId);
}
