import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { notSyncedOutcomes } from '../chunks/chunk-loop.js';
import { bullmq } from '../cjs-packages.js';
import { CANCEL_JOBS_PAGE } from '../defaults.js';
import { NOT_READ_TO_END } from '../missing/verdict.js';
import type { RunNotifier } from '../notify/notifier.js';
import { PlanStore } from '../plan/plan-store.js';
import { type ChunkJobData, sourcesByRow } from '../runs/chunk-job.js';
import type { RedisKeys } from '../runs/keys.js';
import type { RunRecord, RunStore } from '../runs/run-store.js';
import { jobsOfRun, WAITING_STATES } from './cancel-run.js';
import { type EndingCause, unsentReason, unsentReasonOf, unsentStatusOf } from './ending-early.js';
import { finaliseIfSettled } from './finalise.js';
import { readingEnded } from './producing-mark.js';
import { queueOptions } from './queue-options.js';
import { wakeNextRun } from './run-order.js';
import { queueNameOf } from './run-queue.js';

export interface UnsentDeps {
  redis: Redis;
  keys: RedisKeys;
  runs: RunStore;
  prefix: string;
  notifier?: RunNotifier;
}

/**
 * The end of a run whose source broke half way (the producer's), or whose reader died half way (a
 * re-import's: claim-source.ts): the run is marked as ending early (no worker sends a chunk of it
 * from then on: chunk-processor.ts), its chunks still waiting are taken out with their rows settled
 * not sent, and it ends now if no chunk of it is under way; else the worker that settles the last
 * of them ends it (finalise.ts). Never `done` with a row still open.
 */
export async function endRunEarly(
  deps: UnsentDeps,
  run: RunRecord,
  reason: string,
  cause: EndingCause = 'source-broke',
): Promise<void> {
  const unsent = unsentReason(run.dryRun, cause);
  const interrupted = cause === 'interrupted';
  await deps.runs.markEndingEarly(run.id, reason, {
    ...(run.missing ? { missingNotApplied: NOT_READ_TO_END } : {}),
    unsentReason: unsent,
    ...(interrupted ? { interrupted } : {}),
  });
  // A dead reader's last beat listed the run as being read for a minute more (producing-mark.ts),
  // and it will never take itself off: taken off here, or the seller's later runs would wait for it
  // until then, and past its end, to the one-minute backstop (run-order.ts). A live producer (its
  // source broke) takes itself off as its read ends (enqueue-run.ts).
  if (cause === 'reader-stopped') await readingEnded(deps, run.id, run.sellerRef);
  await settleUnsentRows(
    deps,
    { ...run, unsentReason: unsent, ...(interrupted ? { interrupted } : {}) },
    { readerDied: cause === 'reader-stopped' },
  );
  await finaliseIfSettled(deps, run.id);
  // Its chunks taken out (and perhaps the run ended): the next run's chunks put back behind it go on.
  if (cause === 'reader-stopped' && !run.ownQueue)
    await wakeNextRun({ ...deps, now: Date.now }, run.sellerRef, () => runQueue(deps, run));
}

/** The run's queue (the seller's, or its own: run-queue.ts), its errors kept quiet. */
function runQueue(deps: UnsentDeps, run: RunRecord): Queue<ChunkJobData> {
  const queue = new (bullmq().Queue)<ChunkJobData>(
    queueNameOf(deps.keys, run),
    queueOptions(deps.redis, deps.prefix),
  );
  queue.on('error', () => undefined);
  return queue;
}

/**
 * The chunks a run ending early (its source broke, or its reader died, half way) left waiting in its
 * queue, put back behind an earlier run of the seller included (run-order.ts): no row of them is sent
 * any more. They are taken out and their rows settled `skipped`, `failed`, with the run's
 * unsentReason (ending-early.ts; and their source
 * values, for `report --failed-only`), so that the report lists every row read. A chunk a worker
 * holds (this process's or another's) is left to it. Resolves to the rows settled so.
 *
 * `readerDied`: its reader was killed, and may have counted rows it never queued (producer.ts):
 * those, held by nothing, are settled too. A reader that ended the run itself (its source broke,
 * or it was interrupted) queued or settled every row it counted, so a row of its run held by nothing
 * was in a chunk Redis lost, whose worker may still be sending it (its lock gone with the job, it
 * sends until its next look at the lock): left to the look at the idle run (lost-chunks.ts), which
 * comes after that look and says the chunk was lost. Settled here, such a row in flight was said
 * `not sent` although it went. (Rows such a reader counted and whose last write Redis refused as the
 * source broke are left to that look too: Redis did lose them.)
 */
export async function settleUnsentRows(
  deps: UnsentDeps,
  run: RunRecord,
  { readerDied }: { readerDied: boolean },
): Promise<number> {
  const reason = unsentReasonOf(run);
  const status = unsentStatusOf(run);
  const queue = runQueue(deps, run);
  let settled = 0;
  try {
    for (const job of await jobsOfRun(queue, run.id, WAITING_STATES)) {
      // 0: a worker took it meanwhile; it finds the run ending and settles its rows itself.
      if ((await queue.remove(job.id as string)) !== 1) continue;
      const outcomes = notSyncedOutcomes(job.data.rows, reason, status);
      await deps.runs.settle(run.id, outcomes, sourcesByRow(job.data));
      settled += job.data.rows.length;
    }
    if (readerDied) settled += await settleUnheldRows(deps, run.id, queue, reason, status);
  } finally {
    await queue.close();
  }
  return settled;
}

/**
 * Rows the run counted read that nothing holds: no settle recorded them and no chunk of it has them
 * (its reader was killed between counting a batch read and queueing it: producer.ts), nor a plan (a
 * guarded run's planned rows settle as it ends: ending-early.ts). Settled not sent too, with no key
 * (it went with the process), so that the run can end with one report line per row it counted.
 * Read page by page, once, as the run ends early.
 */
async function settleUnheldRows(
  deps: UnsentDeps,
  runId: string,
  queue: Queue<ChunkJobData>,
  reason: string,
  status: 'ok' | 'failed',
): Promise<number> {
  // Its total as it is now: the caller's record may be older than the producer's last count.
  const [total, planned] = await deps.redis.hmget(deps.keys.run(runId), 'total', 'planned');
  const held = new Set<number>();
  for (const job of await jobsOfRun(queue, runId, ['active', ...WAITING_STATES]))
    for (const row of job.data.rows) held.add(row.row);
  const plans = Number(planned ?? 0) > 0 ? new PlanStore(deps.redis, deps.keys) : null;
  let settled = 0;
  for (let first = 1; first <= Number(total ?? 0); first += CANCEL_JOBS_PAGE) {
    const rows = Array.from(
      { length: Math.min(CANCEL_JOBS_PAGE, Number(total) - first + 1) },
      (_, i) => first + i,
    );
    const done = await deps.runs.settledRows(runId, rows);
    let open = rows.filter((row) => !done.has(row) && !held.has(row));
    if (plans && open.length > 0) {
      const planFor = await plans.get(runId, open);
      open = open.filter((row) => !planFor.has(row));
    }
    if (open.length === 0) continue;
    await deps.runs.settle(
      runId,
      notSyncedOutcomes(
        open.map((row) => ({ row, key: '' })),
        reason,
        status,
      ),
    );
    settled += open.length;
  }
  return settled;
}
