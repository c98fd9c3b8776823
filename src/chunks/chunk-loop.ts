import { noteLookalikeCreates } from '../guards/lookalike-creates.js';
import type { RowOutcome } from '../interfaces.js';
import { deactivateChunk } from '../missing/deactivate-chunk.js';
import { clearReactivated, noteStillOff, withReactivations } from '../missing/reactivate.js';
import type { ChunkJobData } from '../runs/chunk-job.js';
import type { SettleFence } from '../runs/settle-fence.js';
import { failsForGood, pauseOf, reasonOf } from '../sync/error-policy.js';
import type { ChunkMode, ChunkRows } from './chunk-rows.js';
import type { RunContext, WorkerDeps } from './run-context.js';

/** Rows that could not be synced at all: settled as failed, so the run still ends and says why. */
export function notSyncedOutcomes(
  rows: ReadonlyArray<{ row: number; key: string }>,
  reason: string,
  /** `ok`: left out on purpose (its run was interrupted: queue/ending-early.ts), not failed. */
  status: 'ok' | 'failed' = 'failed',
): RowOutcome[] {
  return rows.map((row) => ({
    row: row.row,
    key: row.key,
    action: 'skipped',
    productId: null,
    status,
    error: reason,
  }));
}

/**
 * The one loop over a chunk's rows, for every mode: its rows written (`write`), planned (`plan`),
 * held rows sent (`approve`), or the products gone from the source deactivated (a `deactivate` job,
 * missing/deactivate-chunk.ts). The modes (chunk-rows.ts) say what a row's turn does; guards/,
 * missing/ and plan/ are the policies they ask. A pause (429, 401, the API out of reach) rejects,
 * the rows it left unsent stay queued, and the job's owner (queue/chunk-processor.ts) pauses the
 * seller.
 */
export async function syncChunkRows(
  deps: WorkerDeps,
  context: RunContext,
  data: ChunkJobData,
  jobId: string,
  modeName: ChunkMode,
  mode: ChunkRows,
  /** The chunk attempt's job lock, for a `deactivate` job's lines (`mode` has it for the rows). */
  fence?: SettleFence,
): Promise<void> {
  if (data.phase === 'deactivate') {
    if (context.run.missing)
      await deactivateChunk(deps, context, context.run.missing, data.deactivate ?? [], jobId, fence);
    return;
  }
  const { runId, rows } = data;
  const ref = context.run.sellerRef;
  const planned = await mode.todo(rows);
  // Looked up first: a returning product is known by the product its row finds (missing/reactivate.ts).
  const lookups = await context.index.lookup(planned);
  // Before any of them is planned: a create that may duplicate a product the tool lost its record
  // of holds the run (guards/lookalike-creates.ts); a dry run says the real run would be held.
  if (data.phase === undefined && (modeName === 'plan' || context.dryRun))
    await noteLookalikeCreates(deps, context, planned, lookups);
  const reactivated = await withReactivations(deps.redis, deps.keys, ref, planned, lookups);
  const { returning } = reactivated;
  const todo = noteStillOff(reactivated.rows, returning, lookups);
  deps.onRowsBegun?.(runId);
  // Each row settles as soon as it is done (with the rows done at the same time, settle-batch.ts):
  // a worker killed mid-chunk leaves no row whose write happened but whose outcome is lost
  // (the retried chunk would call it `unchanged`) beyond the writes answered in the last moment.
  const results = await Promise.allSettled(
    todo.map(async (row) => {
      try {
        await mode.handle(context, row, lookups.get(row.row) ?? {});
      } catch (error) {
        // E.g. the finder's list read after a lost answer: the row fails, not the job.
        if (!failsForGood(error)) throw error;
        await mode.settle(notSyncedOutcomes([row], reasonOf(error)));
      }
    }),
  );
  const failure = results.find((result) => result.status === 'rejected');
  // The rows that sent no write settle together; after a failure too (else a retry recomputes them).
  await mode.flush().catch((error: unknown) => {
    if (!failure) throw error;
  });
  if (failure) {
    const reasons = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
    throw reasons.find((reason) => pauseOf(reason) !== null) ?? failure.reason;
  }
  // A planned row is not written yet (its `apply` job clears it), nor is a dry run's.
  if (!context.dryRun && modeName !== 'plan')
    await clearReactivated(deps.redis, deps.keys, runId, ref, returning);
}
