import type { Redis } from 'ioredis';
import { CANCEL_JOBS_PAGE } from '../defaults.js';
import type { RowOutcome } from '../interfaces.js';
import { PlanStore } from '../plan/plan-store.js';
import type { RedisKeys } from '../runs/keys.js';
import type { RunRecord, RunStore } from '../runs/run-store.js';
import { unsentOutcome } from './source-failure.js';

// A run whose source broke half way, or whose reader died half way (a re-import ends it:
// claim-source.ts), is `endingEarly` (RunStore.markEndingEarly) until its rows are settled, then it
// ends, `aborted` (finalise.ts): it is never shown over while a row of it is open. Its chunks still
// queued are taken out and their rows settled not sent (unsent-rows.ts); a chunk a worker holds
// settles its rows as it would have, and the last to settle ends the run.

/**
 * Why a run ends early with rows read and not sent: its source broke, the process reading it died,
 * or that process was interrupted (SIGINT, SIGTERM) and ended it on its way out.
 */
export type EndingCause = 'source-broke' | 'reader-stopped' | 'interrupted';

/** What the rows of a run that ended early, queued but never sent (or planned), are reported with. */
export function unsentReason(dryRun: boolean, cause: EndingCause = 'source-broke'): string {
  const not = dryRun ? 'not planned' : 'not sent';
  // Ended by a later run of its source, which reads the source anew: nothing is left to do.
  if (cause === 'reader-stopped')
    return `${not}: the process reading the source stopped before its turn (a later run reads it anew)`;
  // Nothing broke: the user stopped the run (the words of `run`'s own line as it exits).
  if (cause === 'interrupted') return `${not}: the run was interrupted before its turn (run it again)`;
  return `${not}: the source broke before its turn (run it again)`;
}

/**
 * The reason a run ending early gave its unsent rows (kept on its record as it was marked); a run
 * marked by an earlier version, which kept none, had its source broke.
 */
export function unsentReasonOf(run: Pick<RunRecord, 'dryRun' | 'unsentReason'>): string {
  return run.unsentReason ?? unsentReason(run.dryRun);
}

/**
 * What a row of a run ending early that was never sent is settled as: `failed` when something broke
 * (the source, the reader's process), left out as a cancel leaves it (`ok`) when the run was
 * interrupted; counted apart in `status` either way, with its reason in the report.
 */
export function unsentStatusOf(run: Pick<RunRecord, 'interrupted'>): 'ok' | 'failed' {
  return run.interrupted ? 'ok' : 'failed';
}

interface PlannedDeps {
  redis: Redis;
  keys: RedisKeys;
  runs: RunStore;
}

/**
 * The rows a guarded (or over-quota) run planned before its source broke wait for a decision that
 * never comes: nothing of them is sent, and they settle so as the run ends (with their source
 * values, for `report --failed-only`). Read only when the run planned some.
 */
export async function settlePlannedAsUnsent(deps: PlannedDeps, run: RunRecord): Promise<void> {
  if (Number((await deps.redis.hget(deps.keys.run(run.id), 'planned')) ?? 0) === 0) return;
  const plans = new PlanStore(deps.redis, deps.keys);
  const reason = unsentReasonOf(run);
  for (let first = 1; first <= run.total; first += CANCEL_JOBS_PAGE) {
    const rows = Array.from(
      { length: Math.min(CANCEL_JOBS_PAGE, run.total - first + 1) },
      (_, i) => first + i,
    );
    const settled = await deps.runs.settledRows(run.id, rows);
    const open = rows.filter((row) => !settled.has(row));
    const writes = await plans.get(run.id, open);
    const outcomes: RowOutcome[] = [...writes.values()].map((write) =>
      unsentOutcome(write.upsert, reason, unsentStatusOf(run)),
    );
    if (outcomes.length > 0) await deps.runs.settle(run.id, outcomes, await plans.sources(run.id, open));
  }
}
