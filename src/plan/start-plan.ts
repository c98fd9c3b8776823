import type { Redis } from 'ioredis';
import type { RedisKeys } from '../runs/keys.js';
import { readLearnedLimit } from '../runs/learned-limit.js';
import { knownLimit, type StartPlan } from '../runs/run-plan.js';
import type { RunRecord, RunStore } from '../runs/run-store.js';
import type { SellerState } from '../sellers/seller-state.js';
import { LIST_SKIPPED } from '../sync/incremental.js';

interface StartPlanDeps {
  redis: Redis;
  keys: RedisKeys;
  runs: RunStore;
  sellers: SellerState;
}

/**
 * What a run needs, as known once the seller's products are read and before its first write: the
 * reads made, plus one request per source row at most (the rows read so far, or the source's
 * estimate while it is still being read); the limit known and the seller's requests of the day
 * before the run.
 */
export async function startPlanOf(deps: StartPlanDeps, runId: string): Promise<StartPlan | null> {
  const run = await deps.runs.get(runId);
  if (!run) return null;
  const [learned, seller, listSkipped] = await Promise.all([
    readLearnedLimit(deps.redis, deps.keys, run.sellerRef),
    deps.sellers.status(run.sellerRef, run.dailyReset),
    deps.redis.hget(deps.keys.run(runId), LIST_SKIPPED),
  ]);
  const rows = rowsOf(run);
  return {
    requests: run.requests + rows,
    exact: false,
    // The estimate stands for the rows, and it counts more than rows: the line says so.
    ...(rows > run.total && !run.produced && run.rowEstimateOvercounts
      ? { overcounts: run.rowEstimateOvercounts }
      : {}),
    limit: knownLimit(run.dailyBudget, learned),
    // What the day had used before this run: the run's own reads are in `requests` already. The
    // numbers held in blocks count as used: the plan does not count on requests that may be sent.
    usedToday: Math.max(0, seller.requestsToday + (seller.requestsReserved ?? 0) - run.requests),
    deactivates: mayDeactivate(run, listSkipped === '1'),
  };
}

/**
 * `--missing` given, and the run can see a product gone from the source: it reads the products and
 * all the rows (not `--only`; missing/verdict.ts says why the others deactivate nothing).
 */
function mayDeactivate(run: RunRecord, listSkipped: boolean): boolean {
  return run.missing != null && Object.keys(run.missing).length > 0 && !run.only && !listSkipped;
}

/** The run's rows: final once the source is read, else at least the source's estimate. */
function rowsOf(run: RunRecord): number {
  return run.produced ? run.total : Math.max(run.total, run.rowEstimate ?? 0);
}
