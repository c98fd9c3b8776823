import type { Job, Queue } from 'bullmq';
import { notSyncedOutcomes } from '../chunks/chunk-loop.js';
import { chunkMode, chunkRows } from '../chunks/chunk-rows.js';
import type { WorkerDeps } from '../chunks/run-context.js';
import { CLAIM_MS } from '../defaults.js';
import { settleJobUnsent } from '../missing/deactivations.js';
import { type ChunkJobData, sourcesByRow } from '../runs/chunk-job.js';
import { reasonOf } from '../sync/error-policy.js';
import { advanceRun, endAfterDeactivations, finaliseIfSettled, tellApprovalEnd } from './finalise.js';

/**
 * A chunk whose last attempt failed (Redis out of reach, a bug: an API failure settles its rows
 * without failing the job): its unsettled rows fail with the reason (a run must end, and every row
 * be accounted for).
 */
export async function settleFailedChunk(
  deps: WorkerDeps,
  job: Job<ChunkJobData>,
  error: Error,
  queue?: Queue<ChunkJobData>,
): Promise<void> {
  const { runId, rows } = job.data;
  const reason = reasonOf(error);
  const run = await deps.runs.get(runId);
  if (!run) return;
  // As the chunk's mode settles: a planned row waits for the decision, a held row is re-settled.
  if (job.data.phase === 'deactivate') {
    // Its products not deactivated yet fail with the reason, but for those another live job holds:
    // that job sends them. The run ends after its last line.
    await settleJobUnsent(
      deps,
      runId,
      { holder: String(job.id), items: job.data.deactivate ?? [], claimMs: deps.claimMs ?? CLAIM_MS },
      reason,
    );
    await endAfterDeactivations(deps, runId);
    return;
  }
  const mode = chunkRows(deps, runId, run, chunkMode(job.data, run), sourcesByRow(job.data));
  const unsettled = await mode.todo(rows);
  await mode.settle(notSyncedOutcomes(unsettled, reason));
  deps.logger.error(
    { run: runId, job: job.id, rows: unsettled.length, err: reason },
    'chunk failed: its rows are marked failed',
  );
  if (queue) await advanceRun(deps, runId, queue, job.data.phase);
  else if (!(await finaliseIfSettled(deps, runId, queue)) && job.data.phase === 'approve')
    await tellApprovalEnd(deps, runId);
}

/** True when BullMQ will not try the job again. */
export function isFinalAttempt(job: Job<ChunkJobData>): boolean {
  return job.attemptsMade >= (job.opts.attempts ?? 1);
}
