import type { Job, Queue } from 'bullmq';
import { notSyncedOutcomes, syncChunkRows } from '../chunks/chunk-loop.js';
import { chunkMode, chunkRows } from '../chunks/chunk-rows.js';
import { KeyUnavailableError } from '../chunks/key-errors.js';
import type { RunContexts, WorkerDeps } from '../chunks/run-context.js';
import { bullmq } from '../cjs-packages.js';
import { KEY_UNAVAILABLE_RETRY_MS } from '../defaults.js';
import { settleJobUnsent } from '../missing/deactivations.js';
import { markMissingGuarded } from '../missing/missing-guard.js';
import { faultOf, RunStateLostError } from '../redis/health.js';
import { type ChunkJobData, sourcesByRow } from '../runs/chunk-job.js';
import { markRequestsAtLeast, markRequestsCounted } from '../runs/request-counts.js';
import { ChunkLockLostError } from '../sync/chunk-lock-lost.js';
import { pauseOf } from '../sync/error-policy.js';
import { KeyChangedError } from '../sync/key-changed.js';
import { SendingStoppedError } from '../sync/sending-stopped.js';
import { ensureSnapshot, SNAPSHOT_FAILED, SnapshotError } from '../sync/snapshot.js';
import { LOOKALIKE_GUARDED } from '../sync/unrecorded-names.js';
import { CANCELLED } from './cancel-deactivations.js';
import { cancelledOutcomes } from './cancelled-outcomes.js';
import { ChunkAttempts } from './chunk-attempts.js';
import { ChunkHold, jobLockKey } from './chunk-hold.js';
import { unsentReason, unsentStatusOf } from './ending-early.js';
import { advanceRun, endAfterDeactivations, finaliseIfSettled, tellApprovalEnd } from './finalise.js';
import { stopOwnQueueRun } from './own-queue-401.js';
import { pauseSeller } from './pause-seller.js';
import { probeReach } from './reach-probe.js';
import { RunOrder } from './run-order.js';
import { sayRunStarted } from './run-started.js';

/**
 * Processes one chunk: snapshot (once per run), skip rows already settled, diff and write each row
 * through the shared limiter, settle outcomes, then end the run if it was the last.
 * A 429 or 401 pauses the seller's queue and puts the job back without spending an attempt (a 401
 * in a run's own queue stops that run only: own-queue-401.ts).
 * An API failure settles the rows it concerns as failed instead of failing the job: the request
 * had its tries in its own retry layer, and another attempt of the job would only send it again.
 */
export function makeChunkProcessor(
  deps: WorkerDeps,
  contexts: RunContexts,
  queue: Queue,
  /** The process's runs in turn (SellerWorkers shares one); a processor of its own when absent. */
  order: RunOrder = new RunOrder(deps),
  /** The process's chunk attempts under way (SellerWorkers shares one); its own when absent. */
  attempts: ChunkAttempts = new ChunkAttempts(),
) {
  const processChunk = makeChunkSync(deps, contexts, queue, order);
  /**
   * A chunk that met a Redis fault: Redis refused a write (full, read-only) and the job goes back to
   * waiting without spending an attempt (BullMQ's manual rate limit; when even that cannot be
   * written, its lock expires and it returns as stalled); or the run's record is gone, and there is
   * nothing left to do for its rows in this run (the run is to be run again). The command says
   * which, once (`run`: its one line; `worker`: its log).
   */
  return async function processOrPutBack(job: Job<ChunkJobData>, token?: string): Promise<void> {
    try {
      // Handed out again while an earlier attempt at it goes on here (its lock ran out while Redis
      // was away): after that attempt, which sends its rows once (chunk-attempts.ts).
      await attempts.inTurn(job, token, (followsOwn, tokens) => {
        // Its rows' requests stop once another attempt holds the chunk, and their settles with them
        // (chunk-hold.ts). A job run without a lock (tests) is held by nobody else.
        const fence = { lockKey: jobLockKey(job), tokens };
        const hold = token
          ? new ChunkHold(
              deps.redis,
              String(job.id),
              fence,
              job.processedOn ?? deps.now(),
              attempts.lockMs,
              deps.now,
            )
          : undefined;
        return processChunk(job, token, followsOwn, hold);
      });
    } catch (error) {
      // Its lock ran out while it ran: the rows it had not sent are the next holder's. Its end is
      // refused by BullMQ (the lock is not its own), said at info as such refusals are (quiet-errors.ts).
      if (error instanceof ChunkLockLostError) {
        deps.logger.info({ run: job.data.runId, job: job.id }, error.message);
        return;
      }
      const fault = faultOf(error);
      if (fault === null) throw error;
      deps.health?.note(error);
      if (fault !== 'lost') throw new (bullmq().RateLimitError)();
      contexts.drop(job.data.runId);
    }
  };
}

function makeChunkSync(deps: WorkerDeps, contexts: RunContexts, queue: Queue, order: RunOrder) {
  return async function processChunk(
    job: Job<ChunkJobData>,
    token: string | undefined,
    /** The job's previous attempt was this process's and has ended: its requests are counted. */
    followsOwn: boolean,
    /** This attempt's hold on the job's lock: its rows' requests and settles stop once it is lost. */
    hold?: ChunkHold,
  ): Promise<void> {
    const { runId, rows } = job.data;
    const sources = sourcesByRow(job.data);
    // No key to serve the run with here: said, and the chunk is looked at again in a minute.
    const keyUnavailable = async (error: unknown): Promise<never> => {
      if (!(error instanceof KeyUnavailableError)) throw error;
      deps.logger.error({ run: runId }, error.message);
      await job.moveToDelayed(deps.now() + KEY_UNAVAILABLE_RETRY_MS, token);
      throw new (bullmq().DelayedError)();
    };
    let context = await contexts.get(runId).catch(keyUnavailable);
    const [
      [state, snapshotFailed, recorded, cancelledAt, aborted, endingEarly, unsent, interrupted],
      keyRejected,
    ] = await Promise.all([
      deps.redis.hmget(
        deps.keys.run(runId),
        'state',
        SNAPSHOT_FAILED,
        'createdAt',
        'cancelledAt',
        'aborted',
        'endingEarly',
        'unsentReason',
        'interrupted',
      ),
      context ? deps.sellers.rejectedKeys.has(context.run.sellerRef, context.keyFingerprint) : false,
    ]);
    // Taken back after its process stopped holding it (killed, or cut off from Redis past its lock):
    // the requests that process had not yet added to the run are lost, so its counts are lower bounds.
    // Not when that process is this one (its attempt added them as it ended), nor once the run ended:
    // an ended run's record says what it did, for good.
    const ended = state === 'done' || state === 'cancelled';
    if (job.stalledCounter > 0 && recorded && !followsOwn && !ended)
      await markRequestsAtLeast(deps.redis, deps.keys.run(runId), String(job.id), job.attemptsStarted - 1);
    // The key this process built the run's context with was rejected (401) since, here or in another
    // process: never sent again. The context is built anew from the keys as they are now (a keys
    // file read again), or the chunk waits, unsent, if no other key is held.
    if (context && keyRejected) context = await contexts.renew(runId, context).catch(keyUnavailable);
    // A run ended early (its source broke half way, or cancelled) leaves chunks behind: they have
    // nothing to do; nor have the chunks of a held run: only `approve` sends its writes (it makes the
    // run running).
    if (!context || state === 'done' || state === 'held' || state === 'cancelled') {
      // A run ended early by an earlier version, at once: its chunk's rows are reported not sent.
      if (context && aborted === '1' && !mayHaveSent(job))
        await deps.runs.settle(runId, notSyncedOutcomes(rows, unsentReason(context.run.dryRun)), sources);
      // Taken again after the worker whose rows ended the approval round stopped before it told that end.
      if (job.data.phase === 'approve') await tellApprovalEnd(deps, runId);
      contexts.drop(runId);
      return;
    }
    // Its source broke, or its reader died, half way (ending-early.ts): a chunk that sent nothing
    // yet sends nothing now, its rows settle not sent (with the reason the run was marked with), and
    // the last chunk of the run to settle ends it. One taken again after its worker died, or after a
    // failed attempt, may have sent some: it goes on as it began, so that each row's outcome is what
    // happened to it.
    if (endingEarly && !mayHaveSent(job)) {
      const reason = unsent || unsentReason(context.run.dryRun);
      const status = unsentStatusOf({ interrupted: interrupted === '1' });
      await deps.runs.settle(runId, notSyncedOutcomes(rows, reason, status), sources);
      if (await finaliseIfSettled(deps, runId, queue)) contexts.drop(runId);
      return;
    }
    // The run was read before (this process keeps its context) but its record is gone since.
    if (!recorded) throw new RunStateLostError(runId);
    let modeName = chunkMode(job.data, context.run);
    let mode = chunkRows(deps, runId, context.run, modeName, sources, hold?.fence);
    const settleNotSynced = async (reason: string) => {
      await mode.settle(notSyncedOutcomes(await mode.todo(rows), reason));
      if (await advanceRun(deps, runId, queue, job.data.phase)) contexts.drop(runId);
    };
    // `cancel` was asked for after this chunk was handed out: its rows are not sent (those settled
    // already keep their outcome).
    if (cancelledAt) {
      // An approved row is `held` until its write resettles it: the approve mode resettles it
      // (a plain settle passes a settled row over, and the run would never end).
      if (job.data.phase === 'approve') await mode.settle(cancelledOutcomes(rows));
      else if (job.data.phase === 'deactivate') {
        // Its products are not sent either, nor left due: the run's end waits for none to be due.
        const items = job.data.deactivate ?? [];
        const claimMs = context.claims.claimMs;
        await settleJobUnsent(deps, runId, { holder: String(job.id), items, claimMs }, CANCELLED);
        if (await endAfterDeactivations(deps, runId)) contexts.drop(runId);
        return;
      } else await deps.runs.settle(runId, cancelledOutcomes(rows), sources);
      if (await advanceRun(deps, runId, queue, job.data.phase)) contexts.drop(runId);
      return;
    }
    if (snapshotFailed) return settleNotSynced(snapshotFailed);
    // Not before an earlier run of the seller has ended: its writes would otherwise race this run's,
    // and this run's list read would miss them (run-order.ts). Put back, this throws.
    await order.awaitTurn(queue, job, token, { ...context.run, id: runId });
    const ref = context.run.sellerRef;
    // The seller's block of request numbers stays while a chunk of it is under way here.
    deps.sellers.quota.hold(ref);
    try {
      const { probeDue } = await deps.sellers.assertNotPaused(ref);
      if (probeDue) await probeReach(deps, context);
      const started = await deps.runs.markRunning(runId);
      try {
        // The plan is said by the one reader of the list, before the snapshot is marked ready:
        // no chunk of the run writes before it.
        await ensureSnapshot(deps, runId, async () => {
          await context.loadIndex();
          // Before the snapshot is ready: whether `--max-missing` plans the run first (missing-guard.ts).
          await markMissingGuarded(deps, runId, context.run);
          // The plan reads the day's count and the run's requests (its list read): exact, not in blocks.
          await Promise.all([deps.runs.flushRequestCounts(runId), deps.sellers.quota.returnUnused(ref)]);
          await sayRunStarted(deps, context.run, runId);
        });
      } catch (error) {
        // The list could not be read in this run (ensureSnapshot recorded it for every chunk).
        if (error instanceof SnapshotError) {
          // No plan to say: the run ends with its rows not synced; its log still says it started.
          if (started) deps.logger.info({ run: runId, seller: ref }, `run ${runId} started`);
          return settleNotSynced(error.message);
        }
        throw error;
      }
      // Decided with the snapshot: a run over the day's quota plans its rows first (issue 14), and so
      // does a `--missing` run that may deactivate (`--max-missing` holds the whole run).
      if (modeName === 'write') {
        const [planFirst, missingGuarded, lookalikeGuarded] = await deps.redis.hmget(
          deps.keys.run(runId),
          'planFirst',
          'missingGuarded',
          LOOKALIKE_GUARDED,
        );
        const decided = {
          planFirst: planFirst === '1',
          missingGuarded: missingGuarded === '1',
          lookalikeGuarded: lookalikeGuarded === '1',
        };
        modeName = chunkMode(job.data, { ...context.run, ...decided });
        if (modeName === 'plan') mode = chunkRows(deps, runId, context.run, modeName, sources, hold?.fence);
      }
      const rowsContext = hold ? { ...context, client: context.client.gated(() => hold.check()) } : context;
      await syncChunkRows(deps, rowsContext, job.data, String(job.id), modeName, mode, hold?.fence);
      if (job.data.phase === 'deactivate') {
        if (await endAfterDeactivations(deps, runId)) contexts.drop(runId);
        return;
      }
    } catch (error) {
      const pause = pauseOf(error);
      if (pause) {
        const rejectedKey = pause.reason === 'unauthorized' ? context.takeRejectedKey() : undefined;
        if (pause.reason === 'unauthorized' && context.run.ownQueue) {
          await stopOwnQueueRun(deps, queue, { id: runId, sellerRef: ref }, rejectedKey);
          throw new (bullmq().RateLimitError)();
        }
        await pauseSeller(deps, queue, ref, pause, runId, rejectedKey);
      }
      // Its key changed in the keys file mid-chunk: the rows it had not sent go back with the chunk,
      // no attempt spent, to be sent with the key as it is now (or to wait for one).
      if (error instanceof KeyChangedError) {
        deps.logger.info({ run: runId, seller: ref }, error.message);
        throw new (bullmq().RateLimitError)();
      }
      // Its command was interrupted (sync/sending-stopped.ts): the rows it had not sent go back
      // with the chunk, no attempt spent, for whichever worker or approve takes it next.
      if (error instanceof SendingStoppedError) throw new (bullmq().RateLimitError)();
      throw error;
    } finally {
      // What this chunk counted reaches Redis now: the seller's unused numbers and accepted requests, the run's requests.
      const added = await Promise.all([
        deps.sellers.chunkEnded(ref),
        deps.runs.flushRequestCounts(runId),
      ]).then(
        () => true,
        (error: unknown) => {
          deps.health?.note(error);
          return false;
        },
      );
      // It lost its lock (stopped, cut off past it) but did not die: every row's requests are done
      // (the rows are awaited) and added now: the mark the chunk's taker leaves for it is not true.
      if (added && hold?.isLost)
        await markRequestsCounted(
          deps.redis,
          deps.keys.run(runId),
          String(job.id),
          job.attemptsStarted,
        ).catch((error: unknown) => deps.health?.note(error));
    }
    if (await advanceRun(deps, runId, queue, job.data.phase)) contexts.drop(runId);
  };
}

/**
 * Whether an earlier attempt at the chunk may have sent some of its rows: a failed attempt, or a
 * worker that stopped holding it (killed, cut off past its lock). A chunk put back behind an earlier
 * run or on a pause (BullMQ counts it started, not attempted) sent nothing.
 */
function mayHaveSent(job: Job<ChunkJobData>): boolean {
  return job.attemptsMade > 0 || job.stalledCounter > 0;
}
