import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { decideGuardsIfPlanned, wholeRunVerdict } from '../guards/decide.js';
import { noteGuardsWouldHold } from '../guards/dry-run-verdict.js';
import { APPROVAL_END_UNTOLD } from '../guards/held-rows.js';
import {
  LOOKALIKE_ROWS,
  LOOKALIKE_WOULD_HOLD,
  lookalikesOf,
  lookalikeText,
} from '../guards/lookalike-creates.js';
import type { Logger } from '../logger.js';
import { enqueueDeactivations, settleDueAs } from '../missing/deactivations.js';
import { weighMissing } from '../missing/missing-guard.js';
import { scanMissing } from '../missing/missing-scan.js';
import {
  deactivationVerdict,
  MISSING_NOT_APPLIED,
  MISSING_WOULD_HOLD,
  partialRead,
  wouldHoldText,
} from '../missing/verdict.js';
import type { RunNotifier } from '../notify/notifier.js';
import { renewWhile } from '../redis/renew-while.js';
import type { ChunkJobData } from '../runs/chunk-job.js';
import { endedState } from '../runs/ended-state.js';
import { finalisationOver, type LeaseOptions } from '../runs/finalise-claim.js';
import type { RedisKeys } from '../runs/keys.js';
import { recordFieldsSent } from '../runs/managed-fields.js';
import { LIST_NEVER_READ } from '../runs/run-record.js';
import type { RunRecord, RunStore } from '../runs/run-store.js';
import { runCounts } from '../runs/summary.js';
import { LIST_SKIPPED, recordFullRead, voidRecordLacking } from '../sync/incremental.js';
import { matchSpaceOf } from '../sync/match-space.js';
import { settleCancelledPlans } from './cancelled-plans.js';
import { settlePlannedAsUnsent } from './ending-early.js';
import { releaseSource } from './source-claim.js';

export type FinaliseDeps = {
  redis: Redis;
  keys: RedisKeys;
  runs: RunStore;
  notifier?: RunNotifier;
  logger?: Logger;
};

/**
 * After a chunk: a guarded run whose rows are all planned has its guards decided (src/guards), then
 * a run whose rows are all settled is ended. True for the one caller that ended it. An `approve`
 * chunk's run was finalised when it was held: its round's last row ends it, told here
 * (tellApprovalEnd); a cancelled approval ends after its last row instead (endIfFinalisationOver).
 */
export async function advanceRun(
  deps: FinaliseDeps,
  runId: string,
  queue: Queue<ChunkJobData>,
  phase?: ChunkJobData['phase'],
): Promise<boolean> {
  await decideGuardsIfPlanned(deps, runId, queue, (run) => weighMissing(deps, run));
  // Cancelled while its rows were planned: no decision comes, its planned rows settle cancelled.
  await settleCancelledPlans(deps, runId);
  if (await finaliseIfSettled(deps, runId, queue)) return true;
  if (phase !== 'approve') return false;
  // This chunk's rows (or another's) ended the round: its end is told once (tellApprovalEnd).
  if (await tellApprovalEnd(deps, runId)) return true;
  return endIfFinalisationOver(deps, runId);
}

/**
 * Ends a run once every row is settled: one `missing` line per remote product the source does not
 * hold (the API has no delete: the seller decides), then the run is done (or cancelled, when
 * `cancel` asked for it). Exactly one caller does it.
 * With `--missing`, the managed ones among them are deactivated first (src/missing): the run then
 * ends when the last `deactivate` line settles (endAfterDeactivations), and this resolves to false.
 */
export async function finaliseIfSettled(
  deps: FinaliseDeps,
  runId: string,
  queue?: Queue<ChunkJobData>,
  lease?: LeaseOptions,
): Promise<boolean> {
  const claim = await deps.runs.claimFinalisation(runId, lease);
  if (!claim) return false;
  // Renewed while this works (a scan of a large run takes seconds); a caller killed here lets it
  // run out, and the chunk BullMQ hands out again takes the finalisation over (finalise-claim.ts).
  return renewWhile(
    () => claim.renew(),
    claim.leaseMs / 4,
    async () => {
      const ended = await finalise(deps, runId, queue);
      await claim.done();
      return ended;
    },
  );
}

/** Run record field: the missing products were scanned, and their deactivations are being queued. */
const DEACTIVATIONS_SCANNED = 'deactivationsScanned';

async function finalise(deps: FinaliseDeps, runId: string, queue?: Queue<ChunkJobData>): Promise<boolean> {
  const run = await deps.runs.get(runId);
  if (!run) return true;
  // Its source broke half way: nothing is scanned (it cannot tell a product gone from one it did
  // not read), nothing planned is decided; it ends early once its rows are settled (ending-early.ts).
  if (run.endingEarly !== undefined) {
    await settlePlannedAsUnsent(deps, run);
    return endRun(deps, runId, false, run.endingEarly);
  }
  const [listFailed, heldRows, heldReason, scanned, listSkipped, lookalikeRows, listNeverRead] =
    await deps.redis.hmget(
      deps.keys.run(runId),
      'snapshotFailed',
      'status:held',
      'heldReason',
      DEACTIVATIONS_SCANNED,
      LIST_SKIPPED,
      LOOKALIKE_ROWS,
      LIST_NEVER_READ,
    );
  // A dry run holds nothing: its summary says what the real run would be held for.
  if (run.dryRun && lookalikeRows === '1') {
    const wouldHold = lookalikeText(await lookalikesOf(deps.redis, deps.keys, runId));
    if (wouldHold) await deps.redis.hset(deps.keys.run(runId), LOOKALIKE_WOULD_HOLD, wouldHold);
  }
  if (scanned && queue) {
    // A caller stopped while it queued them: some may be sent already, so they are not scanned
    // again; those still due are queued (a job queued already is not queued twice).
    await enqueueDeactivations(deps, runId, queue);
    return false;
  }
  const notApplied = run.missing
    ? partialRead(run, Boolean(listFailed), listSkipped === '1', listNeverRead)
    : null;
  // Said in the summary: `--missing` given and nothing deactivated is never silent.
  if (notApplied !== null) await deps.redis.hset(deps.keys.run(runId), MISSING_NOT_APPLIED, notApplied);
  const deactivate = run.missing && notApplied === null ? run.missing : null;
  const space = await matchSpaceOf(deps.redis, deps.keys, run.sellerRef, run.matchBy, runId, run.dryRun);
  const figures = await scanMissing(deps, runId, run.sellerRef, deactivate, space, run.matchBy);
  await noteGuardsWouldHold(deps, run, figures.due);
  if (figures.due > 0) {
    // Held rows, or a whole-run guard that tripped (`--max-missing` among them) with no write to hold.
    const wholeRun = await wholeRunVerdict(deps.redis, deps.keys, runId);
    const runHeldFor =
      Number(heldRows ?? 0) > 0 || wholeRun ? (heldReason ?? (wholeRun || 'a guard held rows back')) : null;
    const verdict = deactivationVerdict(run, { ...figures, runHeldFor });
    if (verdict.kind === 'send' && queue) {
      await deps.redis.hset(deps.keys.run(runId), DEACTIVATIONS_SCANNED, 1);
      await enqueueDeactivations(deps, runId, queue);
      return false;
    }
    if (verdict.kind === 'held' && verdict.own)
      await deps.redis.hset(deps.keys.run(runId), 'heldReason', verdict.reason);
    // Said now what the write would say of a field it cannot give back.
    const preview = deactivate ? { missing: deactivate, sellerRef: run.sellerRef } : undefined;
    if (verdict.kind === 'held') await settleDueAs(deps, runId, 'held', verdict.reason, preview);
    else if (verdict.kind === 'planned') {
      const wouldHold = wouldHoldText(run, figures);
      if (wouldHold) await deps.redis.hset(deps.keys.run(runId), MISSING_WOULD_HOLD, wouldHold);
      await settleDueAs(deps, runId, 'planned', '', preview);
    } else await settleDueAs(deps, runId, 'failed', 'not sent: no queue to send it through');
    return endRun(deps, runId, verdict.kind === 'held');
  }
  return endRun(deps, runId, false);
}

/**
 * After a `deactivate` job: once the run's last deactivation settled, the run ends (one caller wins).
 * True for that caller. Under `approve`, rows still being approved end it instead (held-rows.ts).
 */
export async function endAfterDeactivations(deps: FinaliseDeps, runId: string): Promise<boolean> {
  const key = deps.keys.run(runId);
  if ((await deps.redis.hlen(deps.keys.deactivations(runId))) > 0) return false;
  if (Number((await deps.redis.hget(key, 'approving')) ?? 0) > 0) return false;
  if ((await deps.redis.hsetnx(key, 'deactivationsEnded', 1)) !== 1) return false;
  return endRun(deps, runId, false);
}

/**
 * The end of a run whose finalisation is over (its end left to its deactivations, or to an approval
 * it was held for): once no deactivation is due and no approved row is left to write, it ends, as
 * after its last `deactivate` job. A cancelled approval ends so (guards/held-rows.ts leaves it to
 * this end step), whoever settles its last row: the cancel or a worker. A run not finalised yet
 * ends by its finalisation instead; one ended already is left alone. True for the caller that ended it.
 */
export async function endIfFinalisationOver(deps: FinaliseDeps, runId: string): Promise<boolean> {
  const [state, finalising] = await deps.redis.hmget(deps.keys.run(runId), 'state', 'finalising');
  if (state !== 'running' && state !== 'queued') return false;
  if (!finalisationOver(finalising)) return false;
  return endAfterDeactivations(deps, runId);
}

/**
 * The rest of an approval round's end step: the round's last row set the run `done` (or `held`
 * again, `approve --rows`) in the same step (guards/held-rows.ts RESETTLE), and marked its end
 * untold. The caller that takes the mark (any that resettled approved rows, or a chunk of the round
 * taken again after the worker that ended it stopped) logs the end line and tells `ended` with the
 * final counts, once. Nothing else of endRun: the record ended with the held run (the source's claim
 * released, its full read recorded then), and a run held again is not told `held` twice (the hook
 * heard it; it hears `ended` when the run ends). True for that caller.
 */
export async function tellApprovalEnd(deps: FinaliseDeps, runId: string): Promise<boolean> {
  if ((await deps.redis.hdel(deps.keys.run(runId), APPROVAL_END_UNTOLD)) !== 1) return false;
  const run = await deps.runs.get(runId);
  // Cancelled in between (a held run): the cancel's end step told that end.
  if (!run || (run.state !== 'done' && run.state !== 'held')) return true;
  // The round sent the held rows: their fields count as sent from now on (managed-fields.ts).
  await recordFieldsSent(deps.redis, deps.keys, run);
  logRunEnd(deps, run);
  if (run.state === 'done') await deps.notifier?.notifyRun('ended', run);
  return true;
}

/**
 * The one end step of every run (its finalisation, its last deactivation, a cancelled approval's
 * last row): the record's end (once: RunStore.finish), one log line, the source's claim released,
 * the webhook told. A caller that finds the run ended already does none of it, and gets false.
 * An approval's last row ends the run in Redis itself: tellApprovalEnd does the rest of its end.
 */
async function endRun(
  deps: FinaliseDeps,
  runId: string,
  heldDeactivations: boolean,
  /** Why its source broke half way: it ends `aborted`, and nothing of it is held for `approve`. */
  endedEarly?: string,
): Promise<boolean> {
  const { redis, keys } = deps;
  // `cancel` ended it; or a guard held rows back: the run waits for `approve` in state `held`.
  const cancelled = (await deps.runs.get(runId))?.cancelledAt !== undefined;
  const held =
    !cancelled &&
    endedEarly === undefined &&
    (heldDeactivations || Number((await redis.hget(keys.run(runId), 'status:held')) ?? 0) > 0);
  const early = endedEarly === undefined ? {} : { aborted: true, endedEarly };
  if (!(await deps.runs.finish(runId, Date.now(), { held, cancelled, ...early }))) return false;
  const run = await deps.runs.get(runId);
  // A cancelled run did not send every row: the seller's record is not as complete as a full read.
  if (run && !cancelled) await recordFullRead(redis, keys, run);
  // A read that found products the record lacks, and did not become the record: the next
  // --incremental run reads them rather than creating them again.
  if (run) await voidRecordLacking(redis, keys, run);
  // Only a run that wrote rows sent its fields: not one held before it wrote (managed-fields.ts).
  if (run) await recordFieldsSent(redis, keys, run);
  if (run) logRunEnd(deps, run);
  if (run?.sourceId) {
    // Only this run's claim: a newer import of the same source may hold the key by now.
    await releaseSource(redis, keys, run.sellerRef, run.sourceId, runId);
  }
  // Last: the run is done whatever the webhook does (the notifier never throws, and its tries are bounded).
  // A run a guard held waits for `approve`: the webhook hears `held`, with the reason, not `ended`.
  if (run) await deps.notifier?.notifyRun(run.state === 'held' ? 'held' : 'ended', run);
  return true;
}

/**
 * The one line a worker's log holds per run end (and per approval round's end): what became of its
 * rows. A run ended early, and one its list read refused, are `done` in their record: said
 * `ended-early` and `refused`, with why, as `status` and its webhook say them, never taken for a
 * whole run by whoever reads the log.
 */
function logRunEnd(deps: FinaliseDeps, run: RunRecord): void {
  const ended = endedState(run);
  deps.logger?.info(
    {
      run: run.id,
      seller: run.sellerRef,
      ...ended,
      ...(run.supersededBy ? { supersededBy: run.supersededBy } : {}),
      rows: run.total,
      ...runCounts(run),
      requests: run.requests,
      writes: run.writes,
      // Lower bounds: a process serving the run died before it had added its counts.
      ...(run.requestsAtLeast ? { requestsAtLeast: true } : {}),
    },
    'endedEarly' in ended
      ? `run ${run.id} ended early: ${ended.endedEarly}`
      : 'refused' in ended
        ? `run ${run.id} refused: ${ended.refused}`
        : `run ${run.id} ${run.state}`,
  );
}
