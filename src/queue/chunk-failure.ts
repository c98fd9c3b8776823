import type { Job } from 'bullmq';
import type { RowOutcome } from '../interfaces.js';
import type { ChunkJobData } from './chunk-job.js';
import { reasonOf } from './error-policy.js';
import { finaliseIfSettled } from './finalise.js';
import type { WorkerDeps } from './run-context.js';

/** The seller's product list could not be read: without it no row of the run can be diffed. */
export class SnapshotError extends Error {
  override name = 'SnapshotError';
  constructor(override readonly cause: unknown) {
    super(`the seller's products could not be read: ${reasonOf(cause)}`);
  }
}

/** The run-record field that says the product list could not be read, and why. */
export const SNAPSHOT_FAILED = 'snapshotFailed';

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
 * A chunk whose last attempt failed: its unsettled rows fail with the reason (a run must end, and
 * every row be accounted for). When the product list was the cause, the run remembers it, and later
 * chunks fail at once instead of spending requests on a list that cannot be read.
 */
export async function settleFailedChunk(
  deps: WorkerDeps,
  job: Job<ChunkJobData>,
  error: Error,
): Promise<void> {
  const { runId, rows } = job.data;
  const reason = reasonOf(error);
  if (error instanceof SnapshotError || error.name === 'SnapshotError') {
    await deps.redis.hsetnx(deps.keys.run(runId), SNAPSHOT_FAILED, reason);
  }
  const settled = await deps.runs.settledRows(
    runId,
    rows.map((row) => row.row),
  );
  const unsettled = rows.filter((row) => !settled.has(row.row));
  await deps.runs.settle(runId, notSyncedOutcomes(unsettled, reason));
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
