import type { Job } from 'bullmq';
import { CANCEL_JOBS_PAGE } from '../defaults.js';
import { HeldRows } from '../guards/held-rows.js';
import type { ChunkJobData } from '../runs/chunk-job.js';
import { readOutcomes } from '../runs/outcome-rows.js';
import type { RunRecord } from '../runs/run-store.js';
import { cancelledOutcomes } from './cancelled-outcomes.js';
import { endIfFinalisationOver, type FinaliseDeps } from './finalise.js';

/**
 * `cancel` of a run whose approval is under way (its writes queued, or waiting out the daily limit):
 * the rows it approved and has not written are still `held` in Redis (guards/held-rows.ts), so the
 * settle of a plain cancel passed them over and the run stayed `running` for ever. They are
 * resettled `skipped` (cancelled) here, but for those of the chunks a live worker holds (`active`):
 * those finish first, as for any cancel. Whoever resettles the last of them, this cancel or a worker,
 * ends the run `cancelled` then, through the end step of every run (finalise.ts endIfFinalisationOver:
 * once, its `ended` webhook told, its end logged): each asks after its own resettles, so the one
 * that asks last finds no row left and ends it, and two that find none end it once.
 */
export async function cancelApprovedRows(
  deps: FinaliseDeps,
  run: Pick<RunRecord, 'id' | 'total' | 'approvedQueued' | 'approvedRows'>,
  /** The run's jobs a worker may still hold: their rows are theirs to settle. */
  active: readonly Pick<Job<ChunkJobData>, 'data'>[],
): Promise<void> {
  if (!run.approvedQueued) return;
  const busy = new Set(active.flatMap((job) => job.data.rows.map((row) => row.row)));
  const named = run.approvedRows ? new Set(run.approvedRows) : null;
  const held = new HeldRows(deps.redis, deps.keys);
  for (let first = 1; first <= run.total; first += CANCEL_JOBS_PAGE) {
    const rows = Array.from(
      { length: Math.min(CANCEL_JOBS_PAGE, run.total - first + 1) },
      (_, i) => first + i,
    )
      // Rows `approve --rows` left out stay held: only the approved ones were to be sent.
      .filter((row) => !busy.has(row) && (named === null || named.has(row)));
    const outcomes = await readOutcomes(deps.redis, deps.keys, run.id, rows);
    const approved = outcomes.flatMap((outcome) =>
      outcome?.status === 'held' && outcome.row !== null ? [{ row: outcome.row, key: outcome.key }] : [],
    );
    if (approved.length > 0) await held.resettle(run.id, cancelledOutcomes(approved));
  }
  await endIfFinalisationOver(deps, run.id);
}
