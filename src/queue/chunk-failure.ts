import type { Job } from 'bullmq';
import type { RowOutcome } from '../interfaces.js';
import { reasonOf } from '../sync/error-policy.js';
import { type ChunkJobData, sourcesByRow } from './chunk-job.js';
import { finaliseIfSettled } from './finalise.js';
import type { WorkerDeps } from './run-context.js';

/** Rows that could not be synced at all: settled as failed, so the run still ends and says why. */
export function notSyncedOutcomes(rows: ChunkJobData['rows'], reason: string): RowOutcome[] {
  return rows.map((row) => ({
    row: row.row,
    key: row.key,
    action: 'skipped',
    productId: null,
    status: 'failed',
    error: reason,
  }));
}

/**
 * A chunk whose last attempt failed (Redis out of reach, a bug: an API failure settles its rows
 * without failing the job): its unsettled rows fail with the reason (a run must end, and every row
 * be accounted for).
 */
export async function settleFailedChunk(
  deps: WorkerDeps,
  job: Job<ChunkJobData>,
  error: Error,
): Promise<void> {
  const { runId, rows } = job.data;
  const reason = reasonOf(error);
  const settled = await deps.runs.settledRows(
    runId,
    rows.map((row) => row.row),
  );
  const unsettled = rows.filter((row) => !settled.has(row.row));
  await deps.runs.settle(runId, notSyncedOutcomes(unsettled, reason), sourcesByRow(job.data));
  deps.logger.error(
    { run: runId, job: job.id, rows: unsettled.length, err: reason },
    'chunk failed: its rows are marked failed',
  );
  await finaliseIfSettled(deps, runId);
}

/** True when BullMQ will not try the job again. */
export function isFinalAttempt(job: Job<ChunkJobData>): boolean {
  return job.attemptsMade >= (job.opts.attempts ?? 1);
}
