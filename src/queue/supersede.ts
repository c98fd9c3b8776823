import { bullmq } from '../cjs-packages.js';
import type { Logger } from '../logger.js';
import type { ChunkJobData } from '../runs/chunk-job.js';
import type { RunRecord } from '../runs/run-store.js';
import { type CancelDeps, cancelRun, jobsOfRun } from './cancel-run.js';
import { jobLockKey } from './chunk-hold.js';
import { queueOptions } from './queue-options.js';
import { throttledErrorLog } from './quiet-errors.js';
import { queueNameOf } from './run-queue.js';

/** What superseding needs of the claims' deps (claim-source.ts): a cancel, and a log line. */
export interface SupersedeDeps extends CancelDeps {
  logger: Logger;
}

/**
 * A later read of a source's address with other content (tonight's file or feed) supersedes
 * `earlier`, a run of that address read to its end whose rows nobody is writing now: its rows would
 * otherwise go first and spend the day's requests on values tonight's source replaces. Cancelled
 * (its unsent rows `skipped`, `cancelled`; what it wrote stays written), and marked superseded by
 * `runId`, so that a process still waiting on it says so (run-outcome.ts).
 *
 * Nobody writes it while the seller waits out the API's daily limit, nor, once that pause is over,
 * while no chunk of it is in a live process's hands: its `run --no-wait` exited 4 and no `worker`
 * took it (cron alone), its `run` was killed, or the only worker is busy elsewhere. Left to run first: a run being written
 * now (a chunk of it active, the seller not paused: a live `run` or `worker` took it), and any run
 * while a --daily-budget pauses the seller (the budget's run cancelled, its pause would go with it
 * and tonight's run would spend what the budget kept). A held run is never here (earlier-source-runs.ts).
 */
export async function supersedeIfUnwritten(
  deps: SupersedeDeps,
  earlier: RunRecord,
  runId: string,
): Promise<void> {
  const ref = earlier.sellerRef;
  const [until, cause] = await deps.redis.mget(deps.keys.pausedUntil(ref), deps.keys.pauseCause(ref));
  const paused = until !== null && Number(until) > Date.now();
  if (paused && cause !== 'limit') return;
  if (approvedRunKept(deps, earlier, runId, paused)) return;
  if (!paused && (await beingWritten(deps, earlier))) return;
  if ((await cancelRun(deps, earlier.id, undefined, runId)).kind === 'refused') return;
  const why = paused ? 'was waiting out the daily limit' : 'was queued with no live process writing it';
  deps.logger.warn(
    { run: earlier.id, supersededBy: runId },
    `run ${earlier.id} of this source ${why}: superseded by run ${runId}, its rows not yet sent skipped`,
  );
}

/**
 * An approval round under way is the seller's decision on the rows a guard held, not last night's
 * values: cancelled, it would be dropped, and the next run would hold the same rows again. Kept, said
 * in one line. Its queued writes go before the later run's (an approval's chunks hold back a run
 * created after them, run-order-scripts.ts): that run reads the products once they are written.
 * An approve that has not queued them all (stopped, or queueing now) is finished by `approve`, which
 * leaves out a row whose product the later run wrote since (guards/superseded.ts).
 */
function approvedRunKept(deps: SupersedeDeps, earlier: RunRecord, runId: string, paused: boolean): boolean {
  if (earlier.state !== 'running' || earlier.approvedAt === undefined) return false;
  const line = earlier.approvalUnqueued
    ? `run ${earlier.id} of this source has an approval not queued yet: not superseded; \`catalog-sync approve ${earlier.id}\` finishes it`
    : `run ${earlier.id} of this source was approved and ${paused ? 'waits out the daily limit' : 'is queued'}: not superseded; its approved writes go first, this run's after`;
  deps.logger.info({ run: earlier.id, keptFor: runId }, line);
  return true;
}

/**
 * A chunk of the run is in a live process's hands: active, and its lock held (renewed every half
 * lock). A killed process's chunk stays listed active until some worker's stall check of the
 * seller's queue puts it back, which with cron alone (no worker) is never: its lock, gone within
 * seconds, tells it apart. A process whose lock ran out sends no more of its rows (chunk-hold.ts).
 */
async function beingWritten(deps: SupersedeDeps, run: RunRecord): Promise<boolean> {
  const queueName = queueNameOf(deps.keys, run);
  const queue = new (bullmq().Queue)<ChunkJobData>(queueName, queueOptions(deps.redis, deps.prefix));
  queue.on('error', throttledErrorLog(deps.logger, `queue ${queueName}`));
  try {
    for (const job of await jobsOfRun(queue, run.id, ['active'])) {
      if ((await deps.redis.exists(jobLockKey(job))) === 1) return true;
    }
    return false;
  } finally {
    await queue.close();
  }
}
