import type { Job, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { bullmq } from '../cjs-packages.js';
import { CANCEL_JOBS_PAGE } from '../defaults.js';
import type { RunNotifier } from '../notify/notifier.js';
import type { ChunkJobData } from '../runs/chunk-job.js';
import { runIdOfChunkJob } from '../runs/chunk-job.js';
import type { RedisKeys } from '../runs/keys.js';
import type { RunRecord, RunStore } from '../runs/run-store.js';
import { cancelApprovedRows } from './cancel-approval.js';
import { cancelDueDeactivations } from './cancel-deactivations.js';
import { cancelledOutcomes } from './cancelled-outcomes.js';
import { endIfFinalisationOver, finaliseIfSettled } from './finalise.js';
import { type MarkDeps, producerLives, readingEnded } from './producing-mark.js';
import { queueOptions } from './queue-options.js';
import { wakeNextRun } from './run-order.js';
import { queueNameOf } from './run-queue.js';

export interface CancelDeps extends MarkDeps {
  redis: Redis;
  keys: RedisKeys;
  runs: RunStore;
  prefix: string;
  /** Tells the run's webhook that it ended (finalise.ts), when the process has one. */
  notifier?: RunNotifier;
}

export type CancelResult =
  | { kind: 'cancelled'; run: RunRecord }
  /** Chunks were in progress on a worker: they settle, then that worker ends the run as cancelled. */
  | { kind: 'ending'; inFlight: number }
  /** `unknown`: no such run here; the command names the Redis it looked in (cli/run-not-found.ts). */
  | { kind: 'refused'; reason: string; unknown?: true };

// A paused queue keeps its jobs in `wait` (BullMQ 6); a rate-limited one too.
export const WAITING_STATES = ['wait', 'prioritized', 'delayed'] as const;

/**
 * Ends a queued or paused run: no chunk of it is synced from now on; its waiting chunks are taken
 * out of its queue (the seller's, or its own: run-queue.ts) and their rows settled `skipped`
 * (cancelled); a chunk a live worker is working on is left to settle, and the run ends when it
 * does. Rows already settled keep their outcome.
 */
export async function cancelRun(
  deps: CancelDeps,
  runId: string,
  /** Told when the run's source may still be read: finding out may take a few seconds. */
  onCheckingReader?: (upToMs: number) => void,
  /** The later run of its source that replaces it (supersede.ts), recorded on the run. */
  supersededBy?: string,
): Promise<CancelResult> {
  const run = await deps.runs.get(runId);
  if (!run)
    return { kind: 'refused', reason: `no run ${runId} in Redis (runs are kept 7 days)`, unknown: true };
  if (run.state === 'done' || run.state === 'cancelled') {
    return { kind: 'refused', reason: `run ${runId} is already ${run.state}: nothing to cancel` };
  }
  if (run.state === 'held') {
    return {
      kind: 'refused',
      reason: `run ${runId} is held by a guard: nothing of it is queued, and nothing held is sent unless \`approve\` is run (\`revert ${runId}\` puts back what it sent)`,
    };
  }
  // A dead reader's mark outlives it for a minute: it is believed only while it changes.
  if (
    !run.produced &&
    (await producerLives(deps, runId, onCheckingReader ? { onWatch: onCheckingReader } : {}))
  ) {
    return {
      kind: 'refused',
      reason: `run ${runId} is still reading its source: stop the \`run\` or \`import\` that reads it (Ctrl-C), then cancel`,
    };
  }
  if (!(await deps.runs.requestCancel(runId, Date.now(), supersededBy))) {
    return { kind: 'refused', reason: `run ${runId} ended meanwhile: nothing to cancel` };
  }
  const queue = new (bullmq().Queue)<ChunkJobData>(
    queueNameOf(deps.keys, run),
    queueOptions(deps.redis, deps.prefix),
  );
  queue.on('error', () => undefined);
  try {
    for (const job of await jobsOfRun(queue, runId, WAITING_STATES)) {
      // 0: a worker took it meanwhile (locked); it sees the cancel and settles its rows itself.
      if ((await queue.remove(job.id as string)) === 1) {
        await deps.runs.settle(runId, cancelledOutcomes(job.data.rows));
      }
    }
    const active = await jobsOfRun(queue, runId, ['active']);
    const inFlight = active.length;
    // Deactivations queued (`--missing`) are settled not sent: they end the run (cancel-deactivations.ts).
    await cancelDueDeactivations(deps, runId, active);
    // Approved rows not written yet are `held` still: resettled, they end the run (cancel-approval.ts).
    await cancelApprovedRows(deps, run, active);
    // A dead reader's last beat listed the run as being read a minute more: taken off (unsent-rows.ts).
    if (!run.produced) await readingEnded(deps, runId, run.sellerRef);
    // Its chunks gone, a later run of the seller that waited for them goes on (run-order.ts).
    if (!run.ownQueue) await wakeNextRun({ ...deps, now: Date.now }, run.sellerRef, queue);
    if (inFlight > 0) return { kind: 'ending', inFlight };
  } finally {
    await queue.close();
  }
  const ended = await endCancelled(deps, run);
  if (!ended) return { kind: 'refused', reason: `run ${runId} is gone from Redis` };
  return { kind: 'cancelled', run: ended };
}

/**
 * The end of a cancel once no chunk of the run is left to settle its rows: the rows none did are
 * settled cancelled, and the run ends. Resolves to the ended run (null: gone from Redis).
 */
export async function endCancelled(deps: CancelDeps, run: RunRecord): Promise<RunRecord | null> {
  await settleTheRest(deps, run);
  await finaliseIfSettled(deps, run.id);
  // Its finalisation was under way meanwhile and queued its deactivations: the cancel settled them.
  await endIfFinalisationOver(deps, run.id);
  return deps.runs.get(run.id);
}

/** The run's chunk jobs in these states, read page by page (the queue holds other runs' jobs too). */
export async function jobsOfRun(
  queue: Queue<ChunkJobData>,
  runId: string,
  states: readonly ('wait' | 'prioritized' | 'delayed' | 'active')[],
): Promise<Job<ChunkJobData>[]> {
  const found: Job<ChunkJobData>[] = [];
  for (let start = 0; ; start += CANCEL_JOBS_PAGE) {
    const page = await queue.getJobs([...states], start, start + CANCEL_JOBS_PAGE - 1, true);
    for (const job of page) if (job?.id && runIdOfChunkJob(job.id) === runId) found.push(job);
    if (page.length < CANCEL_JOBS_PAGE) return found;
  }
}

/**
 * Rows no job held any more (a producer that stopped half way, a chunk lost with its worker):
 * settled too, so the run can end with every row accounted for; the source is read no further.
 */
async function settleTheRest(deps: CancelDeps, run: RunRecord): Promise<void> {
  if (!run.produced) await deps.runs.markProduced(run.id, run.total);
  for (let first = 1; first <= run.total; first += CANCEL_JOBS_PAGE) {
    const rows = Array.from(
      { length: Math.min(CANCEL_JOBS_PAGE, run.total - first + 1) },
      (_, i) => first + i,
    );
    const settled = await deps.runs.settledRows(run.id, rows);
    const rest = rows.filter((row) => !settled.has(row)).map((row) => ({ row, key: '' }));
    if (rest.length > 0) await deps.runs.settle(run.id, cancelledOutcomes(rest));
  }
}
