import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { settleDueUnsent } from '../missing/deactivations.js';
import type { ChunkJobData } from '../runs/chunk-job.js';
import { finalisationOver } from '../runs/finalise-claim.js';
import type { RedisKeys } from '../runs/keys.js';
import type { RunStore } from '../runs/run-store.js';
import { endAfterDeactivations } from './finalise.js';

/** A deactivation a cancel kept from being sent: reported `deactivate`, `failed`, with this error. */
export const CANCELLED = 'cancelled';

interface CancelDeactivationsDeps {
  redis: Redis;
  keys: RedisKeys;
  runs: RunStore;
}

/**
 * `cancel` of a run whose `--missing` deactivations are queued (its finalisation queued them, or an
 * `approve` of the run they were held with): the cancel took their jobs off the queue, so nothing
 * would settle them, and the run, whose end waits for an empty list of due deactivations
 * (finalise.ts endAfterDeactivations), stayed `running` for ever. Those no job in progress (`active`)
 * holds are settled not sent here; a job in progress sends and settles its own, as any chunk a
 * worker holds when its run is cancelled.
 */
export async function cancelDueDeactivations(
  deps: CancelDeactivationsDeps,
  runId: string,
  active: readonly Job<ChunkJobData>[],
): Promise<void> {
  const busy = new Set(active.flatMap((job) => (job.data.deactivate ?? []).map((item) => item.id)));
  await settleDueUnsent(deps, runId, busy, CANCELLED);
  await endCancelledByDeactivations(deps, runId);
}

/**
 * The end of a cancelled run whose finalisation is over (its end left to its deactivations, or to an
 * approval): once no deactivation is due and no approved row is left to write, it ends `cancelled`,
 * as after its last `deactivate` job. A run not finalised yet ends by its finalisation instead
 * (which deactivates nothing for a cancelled run); one ended already is left alone.
 */
export async function endCancelledByDeactivations(
  deps: CancelDeactivationsDeps,
  runId: string,
): Promise<boolean> {
  const [state, finalising] = await deps.redis.hmget(deps.keys.run(runId), 'state', 'finalising');
  if (state !== 'running' && state !== 'queued') return false;
  if (!finalisationOver(finalising)) return false;
  return endAfterDeactivations(deps, runId);
}
