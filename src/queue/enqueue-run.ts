import type { Redis } from 'ioredis';
import { bullmq } from '../cjs-packages.js';
import { decideGuardsIfPlanned } from '../guards/decide.js';
import { isGuarded } from '../guards/verdict.js';
import type { MappedRow } from '../interfaces.js';
import type { Logger } from '../logger.js';
import { mayGuardMissing, weighMissing } from '../missing/missing-guard.js';
import type { RunNotifier } from '../notify/notifier.js';
import { tellPauseAtStart } from '../notify/pause-notice.js';
import { faultOf } from '../redis/health.js';
import { renewWhile } from '../redis/renew-while.js';
import type { ChunkJobData } from '../runs/chunk-job.js';
import { addChunk } from '../runs/chunk-job.js';
import type { RedisKeys } from '../runs/keys.js';
import { fieldsNoLongerInSource } from '../runs/managed-fields.js';
import type { RunRecord, RunSpec, RunStore } from '../runs/run-store.js';
import type { SourceRows } from '../runs/source-rows.js';
import { forgetSteppedAside } from '../runs/stepped-aside.js';
import type { SellerRegistry } from '../sellers/seller-registry.js';
import type { SellerState, SellerStatus } from '../sellers/seller-state.js';
import { chunkSizeOf } from './chunking.js';
import { claimSource } from './claim-source.js';
import { endEarlierRunsOfSource, watchEarlierRuns } from './earlier-source-runs.js';
import { endedEarlyReason } from './ended-early.js';
import { unsentReason } from './ending-early.js';
import { finaliseIfSettled } from './finalise.js';
import type { FirstRows } from './first-rows.js';
import { produceChunks } from './producer.js';
import { RunInterruptedError, SourceLeftUnreadError } from './producer-stops.js';
import { beatEvery, producerLives, producingBeat, readingEnded, watchTellingOnce } from './producing-mark.js';
import { queueOptions } from './queue-options.js';
import { throttledErrorLog } from './quiet-errors.js';
import { type RunOrderDeps, runWaitedFor, sayWait, waitingAhead, wakeNextRun } from './run-order.js';
import { queueNameOf } from './run-queue.js';
import { assertScriptsAllowed } from './scripts-allowed.js';
import { releaseSource } from './source-claim.js';
import { endRunEarly } from './unsent-rows.js';

export interface EnqueueDeps {
  /** BullMQ's connection: the seller's queue is built on it. */
  redis: Redis;
  /**
   * The tool's own connection (runtime.ts), for the producer's per-chunk pipeline: ioredis copies
   * BullMQ's ~64 scripts into every pipeline of BullMQ's client. BullMQ's when absent.
   */
  commands?: Redis;
  keys: RedisKeys;
  runs: RunStore;
  sellers: SellerState;
  registry: SellerRegistry;
  prefix: string;
  logger: Logger;
  notifier?: RunNotifier;
  /** How often a producer renews its `producing` mark (producing-mark.ts); a test seam. */
  producingBeatMs?: number;
}

export interface EnqueueHooks {
  onRunCreated?: (run: RunRecord) => void;
  /** Called while the queue is full, with why the seller's workers send nothing now (or null). */
  onBackpressure?: (waitingJobs: number, sellerPause: string | null) => void;
  signal?: AbortSignal;
  /**
   * An interrupt (`signal`) leaves the run open with the rows queued so far, for the workers, as a
   * stopped reader leaves it (`import`); without it the run ends early, its queued rows unsent (`run`).
   */
  interruptLeavesQueued?: boolean;
  /** Leaves the rest of the source unread, the run open (SourceLeftUnreadError): see produceChunks. */
  leaveUnread?: AbortSignal;
  /** Throws once Redis refused a write: the producer stops (health.ts). */
  assertHealthy?: () => void;
  /** The rows' raw values: a row that fails keeps them for `report --failed-only`. */
  sourceRows?: SourceRows;
  /** A worker of this process starts the run: the read waits for its first rows (first-rows.ts). */
  firstRows?: FirstRows;
  /**
   * Called once the source's earlier runs are dealt with (attached to, ended, superseded), before
   * any row is read: `run` serves the seller's queue from then on, not before, or its workers would
   * take the chunks of an earlier run that this one is about to supersede (supersede.ts).
   */
  onEarlierRunsSettled?: () => void;
  /**
   * Told once per earlier run of the source whose reader's mark this run watches before it reads the
   * source: a killed reader is known dead only once its mark stays unchanged for three beats, and
   * the user is told whose reader is waited for, and how long at most, not left with silence.
   */
  onReaderWatch?: (runId: string, upToMs: number) => void;
}

export type EnqueueResult =
  | { kind: 'queued'; run: RunRecord; total: number }
  | { kind: 'already-queued'; runId: string };

/**
 * Creates a run and streams its rows into the seller's queue. Re-importing a source while its run is
 * still queued does not queue it twice (issue 4): the earlier run id is returned instead.
 */
export async function enqueueRun(
  deps: EnqueueDeps,
  spec: RunSpec,
  rows: AsyncIterable<MappedRow>,
  hooks: EnqueueHooks = {},
): Promise<EnqueueResult> {
  const queueName = deps.keys.sellerQueue(spec.sellerRef);
  await deps.registry.register({
    ref: spec.sellerRef,
    baseUrl: spec.baseUrl,
    queueName,
    ...(spec.sellerName ? { name: spec.sellerName } : {}),
  });
  if (spec.sentFields) {
    const absent = await fieldsNoLongerInSource(deps.redis, deps.keys, spec.sellerRef, spec.sentFields);
    // With --fields the user chose what goes out: the others are absent on purpose.
    if (absent.length > 0 && spec.fields === null) spec = { ...spec, absentFields: absent };
  }
  // Before the run exists: a user refused scripts could neither queue nor end it (scripts-allowed.ts).
  await assertScriptsAllowed(deps.redis, deps.keys, spec.sellerRef);
  const run = await deps.runs.create(spec);
  // Marked before the source is claimed, so that no other import sees this run unread and unmarked.
  const beat = producingBeat(deps, run.id, spec.sellerRef);
  await beat();
  try {
    return await renewWhile(beat, beatEvery(deps), () => produceRun(deps, spec, run, rows, hooks));
  } finally {
    await endReading(deps, run).catch(() => undefined);
  }
}

/**
 * The run's source is read no more, whichever way its read ended: its reader mark goes, so that the
 * next run of the source starts at once instead of watching it (producing-mark.ts); later runs of the
 * seller wait for it no longer, and one whose chunks waited only for this read (its chunks all
 * written already) goes on (run-order.ts).
 */
async function endReading(deps: EnqueueDeps, run: RunRecord): Promise<void> {
  await readingEnded(deps, run.id, run.sellerRef);
  const queueName = deps.keys.sellerQueue(run.sellerRef);
  await wakeNextRun(orderDeps(deps), run.sellerRef, () => {
    const queue = new (bullmq().Queue)<ChunkJobData>(queueName, queueOptions(deps.redis, deps.prefix));
    queue.on('error', throttledErrorLog(deps.logger, `queue ${queueName}`));
    return queue;
  });
}

/**
 * `run`'s enqueue, which waits for what it queues: an earlier run of the source that is still being
 * read is waited on until it is read to the end (then this process waits for that run), or until
 * its producer dies (killed after this run attached): then that run is ended and this one reads the
 * source itself. Never a wait for ever on rows nobody will read.
 */
export async function enqueueOrAttach(
  deps: EnqueueDeps,
  spec: RunSpec,
  rows: AsyncIterable<MappedRow>,
  hooks: EnqueueHooks = {},
): Promise<EnqueueResult> {
  for (;;) {
    const result = await enqueueRun(deps, spec, rows, hooks);
    if (result.kind === 'queued') return result;
    // Said only of a run still being read: one read to its end (its rows queued, e.g. left by a run
    // that exited 3 or 6) is attached to at once, with no other process to wait for.
    const earlier = await deps.runs.get(result.runId);
    if (earlier && !earlier.produced && earlier.state !== 'done' && earlier.state !== 'held') {
      deps.logger.warn(
        { run: result.runId },
        'this source is being read by another process: waiting until it is read to the end',
      );
    }
    if (await readToTheEnd(deps, result.runId, hooks.signal)) return result;
  }
}

/**
 * Whether the run's source is read to the end (or the run is over, or ending: its source broke)
 * before its producer dies.
 */
async function readToTheEnd(deps: EnqueueDeps, runId: string, signal?: AbortSignal): Promise<boolean> {
  for (;;) {
    const run = await deps.runs.get(runId);
    if (!run || run.produced || run.endingEarly !== undefined || signal?.aborted) return true;
    if (run.state === 'done' || run.state === 'held') return true;
    if (!(await producerLives(deps, runId, { signal }))) {
      // Read once more: the producer clears its mark as it marks the run produced.
      const again = await deps.runs.get(runId);
      return !again || again.produced;
    }
  }
}

async function produceRun(
  deps: EnqueueDeps,
  spec: RunSpec,
  run: RunRecord,
  rows: AsyncIterable<MappedRow>,
  hooks: EnqueueHooks,
): Promise<EnqueueResult> {
  const queueName = queueNameOf(deps.keys, run);
  if (spec.sourceId) {
    // Watched while the source is claimed: each killed reader's mark takes three beats to be known dead.
    const readers = watchTellingOnce(hooks.signal, hooks.onReaderWatch);
    const watch = watchEarlierRuns(deps, run, readers);
    const earlier = await claimSource(deps, spec.sellerRef, spec.sourceId, run.id, readers).catch(
      (error: unknown) => {
        watch.stop();
        throw error;
      },
    );
    // Attached, this run is no more: the runs of its source are left to the one it attached to.
    if (earlier) watch.stop();
    else await endEarlierRunsOfSource(deps, run, watch, hooks.signal);
    hooks.onEarlierRunsSettled?.();
    if (earlier) {
      // Nothing of it stays: no id in the seller's runs or its source's runs without a record.
      await forgetSteppedAside(deps.redis, deps.keys, run);
      return { kind: 'already-queued', runId: earlier };
    }
  }
  if (!spec.sourceId) hooks.onEarlierRunsSettled?.();
  hooks.onRunCreated?.(run);
  // Its wait begins now, not at its first chunk: a `run` writes the earlier run's rows first, which
  // its log would otherwise not say until they were written (run-order.ts).
  if (!run.ownQueue) {
    // Only a log line: a Redis that cannot answer it is met by the read below.
    const earlier = await runWaitedFor(orderDeps(deps), run.sellerRef, run.id).catch(() => null);
    if (earlier !== null) sayWait(deps.logger, run, earlier);
  }
  // A seller paused already takes none of this run's chunks, so no chunk would tell its webhook of
  // the pause it waits on: told now, beside the read (a slow hook does not hold the source back).
  const pauseTold = tellPauseAtStart(deps, run);
  const queue = new (bullmq().Queue)<ChunkJobData>(queueName, queueOptions(deps.redis, deps.prefix));
  queue.on('error', throttledErrorLog(deps.logger, `queue ${queueName}`));
  try {
    const { total, chunks } = await produceChunks({
      redis: deps.commands ?? deps.redis,
      keys: deps.keys,
      runs: deps.runs,
      queue,
      runId: run.id,
      rows,
      chunkSize: chunkSizeOf(spec),
      unsentReason: unsentReason(run.dryRun),
      ...(hooks.onBackpressure ? { onBackpressure: hooks.onBackpressure } : {}),
      ...(hooks.signal ? { signal: hooks.signal } : {}),
      ...(hooks.leaveUnread ? { leaveUnread: hooks.leaveUnread } : {}),
      ...(hooks.assertHealthy ? { assertHealthy: hooks.assertHealthy } : {}),
      ...(hooks.sourceRows ? { sourceRows: hooks.sourceRows } : {}),
      ...(hooks.firstRows ? { firstRows: hooks.firstRows } : {}),
      sellerPause: async () => pauseReason(await deps.sellers.status(spec.sellerRef, spec.dailyReset)),
      // The later runs' chunks put back behind this one wait for its read to end: not counted.
      ...(run.ownQueue ? {} : { waitingAhead: () => waitingAhead(orderDeps(deps), run.sellerRef, run.id) }),
    });
    // A run whose rows needed no request still needs a worker to read the seller's products, so
    // that its report lists the `missing` ones: one empty chunk does that.
    if (chunks === 0) await addChunk(queue, { runId: run.id, chunk: 0, rows: [] });
    await deps.runs.markProduced(run.id, total);
    // A guarded run's guards are decided in a job once every row is planned: this one comes after
    // the last row is read, so some chunk always looks once the run's total is final.
    // A `--missing` run may be planned too (missing-guard.ts: decided with its list read).
    if ((isGuarded(spec) || mayGuardMissing(spec)) && chunks > 0)
      await addChunk(queue, { runId: run.id, chunk: chunks, rows: [] });
    // A run found over the day's quota (planFirst) may have planned every row before its total was
    // final: its writes are ordered and queued now (nothing happens for another run, or too early).
    await decideGuardsIfPlanned(deps, run.id, queue, (planned) => weighMissing(deps, planned));
    await finaliseIfSettled(deps, run.id, queue);
    deps.logger.info({ run: run.id, rows: total, chunks }, 'run queued');
    return { kind: 'queued', run, total };
  } catch (error) {
    if (
      error instanceof SourceLeftUnreadError ||
      (error instanceof RunInterruptedError && hooks.interruptLeavesQueued)
    ) {
      // Left open on purpose: its queued rows go on after the pause (or the interrupt). Unmarked as
      // producing as its read ends (endReading), so that the next import of the source ends it and
      // reads the source anew (claimSource); `status` says its source was left unread meanwhile
      // (readerStopped).
      throw error;
    }
    // Redis refuses writes (or lost the run): nothing can be recorded. The run stays as it is,
    // unmarked as producing as its read ends (endReading: a delete is taken even by a full Redis), so
    // that the next import of the source, once Redis takes writes, ends it and starts over.
    if (faultOf(error) !== null) throw error;
    // A source that breaks half way (or a `run` interrupted mid-read) leaves a run that would never
    // end: it ends early, once the rows it queued are settled (its chunks still waiting are not
    // sent). Its `--missing` deactivates nothing, said in the summary and `status` as finalise.ts
    // says it; its webhook hears `ended` (after the pause it was told of, if any). Interrupted,
    // nothing broke: its unsent rows are said interrupted, not failed (ending-early.ts).
    await pauseTold;
    const cause = error instanceof RunInterruptedError ? 'interrupted' : 'source-broke';
    await endRunEarly(deps, run, endedEarlyReason(error), cause);
    // Only while it is still this run's: a re-run that took this one for dead may hold it now.
    if (spec.sourceId) await releaseSource(deps.redis, deps.keys, spec.sellerRef, spec.sourceId, run.id);
    throw error;
  } finally {
    await queue.close();
    await pauseTold;
  }
}

/** What the seller's run order (run-order.ts) asks of the enqueue's deps. */
function orderDeps(deps: EnqueueDeps): RunOrderDeps {
  return { redis: deps.commands ?? deps.redis, keys: deps.keys, now: Date.now };
}

/** Why the seller's workers send nothing now, in words for the user; null when they may. */
function pauseReason(seller: SellerStatus): string | null {
  if (seller.authRejected) return 'the API key was rejected (401)';
  if (seller.unreachable) return `the API is out of reach (${seller.unreachable.cause})`;
  if (seller.pausedUntil !== null) return `paused until ${new Date(seller.pausedUntil).toISOString()}`;
  return null;
}
