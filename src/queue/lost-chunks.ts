import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { notSyncedOutcomes } from '../chunks/chunk-loop.js';
import { bullmq } from '../cjs-packages.js';
import { CANCEL_JOBS_PAGE } from '../defaults.js';
import type { Logger } from '../logger.js';
import type { RunNotifier } from '../notify/notifier.js';
import { PlanStore } from '../plan/plan-store.js';
import { type ChunkJobData, runIdOfChunkJob } from '../runs/chunk-job.js';
import type { RedisKeys } from '../runs/keys.js';
import type { RunRecord, RunStore } from '../runs/run-store.js';
import { cancelledOutcomes } from './cancelled-outcomes.js';
import { advanceRun, endIfFinalisationOver, tellApprovalEnd } from './finalise.js';
import { markListNeverRead } from './list-never-read.js';
import { giveBackLostApprovals } from './lost-approvals.js';
import { createsOfRun, maybeSentReason } from './lost-creates.js';
import { settleLostDeactivations } from './lost-deactivations.js';
import { queueOptions } from './queue-options.js';
import { queueNameOf } from './run-queue.js';

// A chunk job can vanish from Redis with none of its rows settled: a Redis Cluster failover drops
// the writes its master had not replicated yet, a partial flush takes some keys. BullMQ never hands
// such a job out again, and a run waits on every row it counted: it would stay open (or "ending
// early") for good, and the `run` waiting on it would wait for ever. A run idle a while is looked
// at here (lost-rows-watch.ts): its rows that nothing holds any more are settled, not sent, and it
// ends. Only when idle: a look reads the run's jobs and its outcomes page by page.

/** Where a run's chunks are until they settle (BullMQ 6: a paused queue keeps them in `wait`). */
const HOLDING_STATES = ['active', 'wait', 'prioritized', 'delayed'] as const;

export interface LostChunkDeps {
  /** BullMQ's connection (the queue's). */
  redis: Redis;
  keys: RedisKeys;
  runs: RunStore;
  prefix: string;
  notifier?: RunNotifier;
  logger?: Logger;
}

/** What a row whose queued chunk Redis lost is reported with (`failed`: it was never sent). */
export function lostChunkReason(dryRun: boolean): string {
  const [not, sends] = dryRun ? ['not planned', 'plans'] : ['not sent', 'sends'];
  return `${not}: its queued chunk was lost from Redis (a failover or a flush dropped its job); a re-run of the source ${sends} it`;
}

/**
 * Settles the rows of the run that nothing holds: no settle recorded them, no chunk job of its queue
 * has them (in any state a job waits or runs in), no plan has them, and its source is read no more
 * (read to the end, or ending early: a live reader may have counted rows it has not queued yet).
 * Then the run goes on as after a chunk: its guards decided, or it ends. A job a worker holds whose
 * data is gone (its lock live) puts the look off: its rows are unknown, and the worker settles them.
 * Resolves to the rows settled so.
 */
export async function settleLostRows(deps: LostChunkDeps, runId: string): Promise<number> {
  const run = await deps.runs.get(runId);
  if (!run || (run.state !== 'queued' && run.state !== 'running')) return 0;
  if (!run.produced && run.endingEarly === undefined) return 0;
  const queue = new (bullmq().Queue)<ChunkJobData>(
    queueNameOf(deps.keys, run),
    queueOptions(deps.redis, deps.prefix),
  );
  queue.on('error', () => undefined);
  try {
    const held = await heldRows(deps, queue, runId);
    if (held === null) return 0;
    // A create of the run under way (its job vanished under a live worker): that worker settles its
    // row, which the look cannot tell (its key went with its job), so the look waits for it.
    const creates = await createsOfRun(deps.redis, deps.keys, run);
    if (creates.live) return 0;
    const reason =
      creates.stale.length > 0 ? maybeSentReason(run.matchBy, creates.stale) : lostChunkReason(run.dryRun);
    const settled = await settleUnheld(deps, run, held.rows, reason);
    if (settled > 0) {
      deps.logger?.warn(
        { run: runId, rows: settled },
        `run ${runId}: ${settled} rows held by no chunk job (their chunk was lost from Redis): settled not sent`,
      );
    }
    // Its `--missing` deactivations and an approval's rows are held by jobs too (its end waits on them).
    const deactivations = await settleLostDeactivations(deps, run, held.jobs);
    const approved = await giveBackLostApprovals(deps, run, held.jobs);
    if (deactivations > 0 || approved > 0) {
      deps.logger?.warn(
        { run: runId, deactivations, approved },
        `run ${runId}: ${deactivations} deactivations and ${approved} approved rows held by no job (their job was lost from Redis): deactivations settled not sent, approved rows held again`,
      );
    }
    // No job of it left: none will read the seller's list, which its end waits for otherwise.
    if (held.jobs.length === 0) await markListNeverRead(deps.redis, deps.keys, runId);
    // Its last chunk lost, nothing would end it (a chunk that settles its last row does that).
    if (settled > 0 || held.jobs.length === 0) await advanceRun(deps, runId, queue);
    // As after a `deactivate` or `approve` job: the last of them ends the run, or the round.
    if (deactivations > 0 || approved > 0 || run.cancelledAt !== undefined) {
      await tellApprovalEnd(deps, runId);
      await endIfFinalisationOver(deps, runId);
    }
    return settled + deactivations + approved;
  } finally {
    await queue.close();
  }
}

/**
 * The rows the run's chunk jobs hold, and the jobs' data (their deactivations); null when a worker
 * holds a job of it whose data is gone. Their ids are read in one step (one script over the states), so that a job
 * moving between two states is never missed; their rows after, then the outcomes (settleUnheld): a
 * job that ends in between settled its rows before it went.
 */
async function heldRows(
  deps: LostChunkDeps,
  queue: Queue<ChunkJobData>,
  runId: string,
): Promise<{ rows: Set<number>; jobs: ChunkJobData[] } | null> {
  const ids = (await queue.getRanges([...HOLDING_STATES], 0, -1, true)).filter(
    (id) => runIdOfChunkJob(id) === runId,
  );
  const rows = new Set<number>();
  const jobs: ChunkJobData[] = [];
  for (const id of ids) {
    const job = await queue.getJob(id);
    if (job?.data?.rows) {
      for (const row of job.data.rows) rows.add(row.row);
      jobs.push(job.data);
    } else if ((await deps.redis.exists(queue.toKey(`${id}:lock`))) === 1) return null;
    // Its data gone and no worker on it: it holds nothing, and BullMQ hands it out no more.
  }
  return { rows, jobs };
}

/** Settles the run's rows neither settled, nor in `held`, nor planned, page by page. */
async function settleUnheld(
  deps: LostChunkDeps,
  run: RunRecord,
  held: ReadonlySet<number>,
  reason: string,
): Promise<number> {
  // Its total as it is now: the record read before the jobs may be older than the producer's count.
  const [totalNow, planned] = await deps.redis.hmget(deps.keys.run(run.id), 'total', 'planned');
  const total = Number(totalNow ?? 0);
  const plans = Number(planned ?? 0) > 0 ? new PlanStore(deps.redis, deps.keys) : null;
  let settled = 0;
  for (let first = 1; first <= total; first += CANCEL_JOBS_PAGE) {
    const rows = Array.from({ length: Math.min(CANCEL_JOBS_PAGE, total - first + 1) }, (_, i) => first + i);
    const done = await deps.runs.settledRows(run.id, rows);
    let open = rows.filter((row) => !done.has(row) && !held.has(row));
    if (plans && open.length > 0) {
      const planFor = await plans.get(run.id, open);
      open = open.filter((row) => !planFor.has(row));
    }
    if (open.length === 0) continue;
    // Its key went with its job. A cancelled run's rows are left out as its cancel leaves them.
    const lost = open.map((row) => ({ row, key: '' }));
    const outcomes =
      run.cancelledAt !== undefined ? cancelledOutcomes(lost) : notSyncedOutcomes(lost, reason, 'failed');
    settled += (await deps.runs.settle(run.id, outcomes)).settledNow;
  }
  return settled;
}
