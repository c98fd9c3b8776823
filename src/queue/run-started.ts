import type { WorkerDeps } from '../chunks/run-context.js';
import { keepPlanLine } from '../plan/said-plan.js';
import { startPlanOf } from '../plan/start-plan.js';
import { exceedsToday, startPlanLine } from '../runs/run-plan.js';
import type { RunSpec } from '../runs/run-store.js';

/**
 * The worker's "run started" line, with the plan against the daily limit (issue 14) that `run`
 * prints too. A dry run's plan is in its summary. Said by the run's list reader, before the list is
 * marked read: no chunk of the run writes before it.
 */
export async function sayRunStarted(deps: WorkerDeps, spec: RunSpec, runId: string): Promise<void> {
  const plan = spec.dryRun ? null : await startPlanOf(deps, runId);
  const line = plan ? startPlanLine(plan) : undefined;
  // More than the day's remaining quota: every row is planned, then the `--first` writes go first.
  if (plan && exceedsToday(plan)) await deps.redis.hset(deps.keys.run(runId), 'planFirst', 1);
  // Kept for the `run` that created the run, when this is another process (said-plan.ts).
  if (line) await keepPlanLine(deps.redis, deps.keys, runId, line);
  const { source, preset, sellerRef: seller } = spec;
  deps.logger.info({ run: runId, seller, source, preset, plan: line }, `run ${runId} started`);
  if (line) deps.onRunPlan?.(runId, line);
}
