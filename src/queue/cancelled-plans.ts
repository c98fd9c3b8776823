import type { Redis } from 'ioredis';
import { CANCEL_JOBS_PAGE } from '../defaults.js';
import { guardsDecided } from '../guards/decide.js';
import { PlanStore } from '../plan/plan-store.js';
import type { RedisKeys } from '../runs/keys.js';
import type { RunStore } from '../runs/run-store.js';
import { cancelledOutcomes } from './cancelled-outcomes.js';

interface CancelledPlansDeps {
  redis: Redis;
  keys: RedisKeys;
  runs: RunStore;
}

/**
 * A planned run (guarded, or over the day's quota: planned first, which is decided with its list
 * read) cancelled while a worker's chunks planned its rows: a cancelled run's guards are never
 * decided (decide.ts), so nothing else would settle its planned rows, and the run would stay
 * `cancelling` for ever. Once every row is planned or settled (no chunk has a row left to plan),
 * the planned ones settle as a cancel settles queued rows (`skipped`, `cancelled`), none sent; the
 * caller's finalisation then ends the run cancelled. Not once the decision began: its `apply` jobs
 * hold those rows then (the cancel took the queued ones out, a chunk under way settles its own).
 * Safe from any number of callers at once: a row settles once.
 */
export async function settleCancelledPlans(deps: CancelledPlansDeps, runId: string): Promise<void> {
  const run = await deps.runs.get(runId);
  if (!run || run.cancelledAt === undefined || !run.produced) return;
  if (run.state !== 'running' && run.state !== 'queued') return;
  // A run ending early settles its planned rows as it ends, with its own reason (ending-early.ts).
  if (run.endingEarly !== undefined) return;
  const planned = Number((await deps.redis.hget(deps.keys.run(runId), 'planned')) ?? 0);
  if (planned === 0 || run.settled + planned < run.total) return;
  if (await guardsDecided(deps.redis, deps.keys, runId)) return;
  const plans = new PlanStore(deps.redis, deps.keys);
  for (let first = 1; first <= run.total; first += CANCEL_JOBS_PAGE) {
    const rows = Array.from(
      { length: Math.min(CANCEL_JOBS_PAGE, run.total - first + 1) },
      (_, i) => first + i,
    );
    const settled = await deps.runs.settledRows(runId, rows);
    const writes = await plans.get(
      runId,
      rows.filter((row) => !settled.has(row)),
    );
    const outcomes = cancelledOutcomes([...writes.values()].map((write) => write.upsert));
    if (outcomes.length > 0) await deps.runs.settle(runId, outcomes);
  }
}
