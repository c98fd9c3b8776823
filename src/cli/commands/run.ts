import type { Command } from 'commander';
import { logLevelGiven, progressBarAllowed } from '../../config.js';
import { enqueueOrAttach, enqueueRun } from '../../queue/enqueue-run.js';
import { RunInterruptedError, SourceLeftUnreadError } from '../../queue/producer-stops.js';
import { readerWatchText } from '../../queue/producing-mark.js';
import { inOwnQueueIfDry, queueNameOf } from '../../queue/run-queue.js';
import { keepMarkedServed } from '../../queue/served-marks.js';
import type { RedisFaultError } from '../../redis/health.js';
import type { RunRecord } from '../../runs/run-store.js';
import { closeWithinDeadline } from '../close-deadline.js';
import { interruptedReadLine } from '../interrupted-read.js';
import { type JoinedRunHook, joinedRunHook } from '../joined-run-hook.js';
import { resumeIfKeyWorksAgain } from '../key-pause.js';
import { asUsageError, prepareRun } from '../prepare-run.js';
import type { CliIo } from '../program.js';
import { createProgressView } from '../progress.js';
import { liftReachPause } from '../reach-pause.js';
import { checkRedisRoom } from '../redis-room.js';
import { keyHadHistory } from '../rejected-key-line.js';
import { type RunClosing, withRunClosing } from '../run-closing.js';
import type { RunFlags } from '../run-flags.js';
import { addRunOptions, resolveRunInput } from '../run-options.js';
import { interruptedLine, reportOutcome, say, waitingLine } from '../run-outcome.js';
import { RunPlanEcho } from '../run-plan-echo.js';
import { closeOwnQueueOf, endingEarly, reportFault } from '../run-stops.js';
import { logRunSummary } from '../run-summary-line.js';
import { type Runtime, withRuntime } from '../runtime.js';
import { BEFORE_THE_RUN, BeforeRun, onInterrupt } from '../signals.js';
import { reportSourceBroke, SourceBroke, sourceBroke } from '../source-broke.js';
import { RunWake, type WaitResult, waitForRun } from '../wait-for-run.js';
import { chunksAtOnceFor, startSellerWorkers } from '../worker-deps.js';

export function registerRun(program: Command, io: CliIo): void {
  addRunOptions(
    program
      .command('run [source]')
      .description(
        'enqueue one import run, process it in this process, wait until every row is settled, print a summary',
      ),
    'run',
  ).action(async (source: string | undefined, options: RunFlags, command: Command) => {
    const input = await resolveRunInput(command, source, options, io.env, io.network?.lookup);
    io.exitCode = await runCommand(io, input.source, input.flags);
  });
}

/** `run`: what cron calls when no separate worker runs. Resolves to its exit code (README, Exit codes). */
export async function runCommand(io: CliIo, source: string, flags: RunFlags): Promise<number> {
  // Heard from the start: connecting to Redis and opening the source come before the run exists.
  const before = new BeforeRun(BEFORE_THE_RUN, io.signals);
  try {
    // Heard to the end: once the run's outcome is said, its closing, Redis' close too.
    return await withRunClosing(io, (closing) =>
      withRuntime(
        io,
        {
          ...(flags.redisUrl ? { redisUrl: flags.redisUrl } : {}),
          privateRedisAllowed: flags.sandbox,
          writes: { allowEviction: flags.allowEviction },
          ...(flags.notify ? { notify: flags.notify } : {}),
          allowPrivateSource: flags.allowPrivateSource,
          // While a progress bar owns the terminal it shows pauses itself; only errors are logged.
          ...(progressBarAllowed(io.env, io.stderr) && !logLevelGiven(io.env) ? { logLevel: 'error' } : {}),
          before,
        },
        (runtime) => syncOnce(io, runtime, source, flags, before, closing),
      ),
    );
  } finally {
    before.handOver();
  }
}

/**
 * One run on an open runtime (also used by `npm start`, which runs twice on one sandbox). `closing`:
 * the caller's, when it closes more after (`run`: the runtime); else one of this call's own.
 */
export async function syncOnce(
  io: CliIo,
  runtime: Runtime,
  source: string,
  flags: RunFlags,
  before = new BeforeRun(BEFORE_THE_RUN, io.signals),
  closing?: RunClosing,
): Promise<number> {
  if (closing) return await syncAndClose(io, runtime, source, flags, before, closing);
  return await withRunClosing(io, (own) => syncAndClose(io, runtime, source, flags, before, own));
}

async function syncAndClose(
  io: CliIo,
  runtime: Runtime,
  source: string,
  flags: RunFlags,
  before: BeforeRun,
  closing: RunClosing,
): Promise<number> {
  const prepared = await before
    .during(() => prepareRun(io, source, flags, runtime.registry, 'run', before), {
      abandon: (late) => late.close(),
    })
    .catch((error: unknown) => {
      before.handOver();
      throw error;
    });
  const spec = inOwnQueueIfDry(prepared.spec);
  const seller = {
    ref: spec.sellerRef,
    baseUrl: spec.baseUrl,
    queueName: runtime.keys.sellerQueue(spec.sellerRef),
  };
  let keyKnown: boolean;
  let answersAgain: Awaited<ReturnType<typeof liftReachPause>>;
  try {
    // Before the first request (the key check below may send one).
    await checkRedisRoom(runtime, prepared.rowEstimate, flags.force);
    await resumeIfKeyWorksAgain(io, runtime, spec, seller, before);
    // Before the run lists itself under its seller: what a 401 means (rejected-key-line.ts).
    keyKnown = await keyHadHistory(io, runtime, spec);
    before.check();
    answersAgain = await liftReachPause(runtime, seller, io.env[spec.keyEnv]?.trim(), spec);
    // Interrupted meanwhile: these steps were let finish (a pause lifted whole), nothing queued yet.
    before.check();
  } catch (error) {
    before.handOver();
    await prepared.close();
    throw error;
  }
  if (answersAgain.kind === 'resumed') {
    say(io, `catalog-sync: ${spec.baseUrl} answers again: seller ${spec.sellerRef} resumed\n`);
  }
  // The base URL this run was prepared with passed this process's checks (command line, sandbox, or an allowed job file).
  let runIdKnown: string | null = null;
  // The plan against the daily limit, said before the run's first write (issue 14), wherever read.
  const plan = new RunPlanEcho(io.stdout, () => runIdKnown);
  const onRunPlan = (planned: string, line: string) => plan.heard(planned, line);
  const wake = new RunWake();
  const onRunLeft = (left: string) => {
    if (left === runIdKnown) wake.wake();
  };
  // The source's first chunks are queued, then its read waits for this process's first rows.
  let rowsBegun: () => void = () => {};
  const begun = new Promise<void>((resolve) => {
    rowsBegun = resolve;
  });
  const onRowsBegun = (started: string) => {
    if (started === runIdKnown) rowsBegun();
  };
  const workers = startSellerWorkers(
    runtime,
    io.env,
    flags.concurrency,
    { baseUrls: [spec.baseUrl], allowInsecure: flags.allowInsecure },
    {
      command: 'run',
      onRunPlan,
      onRunLeft,
      onRowsBegun,
      ...(io.answerCaps ? { answerCaps: io.answerCaps } : {}),
    },
  );
  // A dry run's queue is its own, served once the run is created; any other run's is its seller's,
  // with the rows its other runs left queued (docs/options.md): served once the earlier runs of the
  // source are dealt with, so that none of their chunks is taken that this run supersedes.
  const serveSeller = () => {
    if (!spec.ownQueue) workers.serve(seller);
  };
  // This process serves its seller: `status` elsewhere must not say the run waits for a worker. Not
  // a dry run's: the seller's other runs still wait for one (its own run waits for none: worker-wait.ts).
  const stopMarking = spec.ownQueue
    ? async () => {}
    : keepMarkedServed(runtime.commands, runtime.keys, () => [seller.ref]);
  const progress = createProgressView(io.stderr, runtime.logger, progressBarAllowed(io.env, io.stderr));
  prepared.beforeStoreLines(() => progress.stop());
  // No await since the last check: the run's own interrupt takes over before the run is created.
  before.handOver();
  const interrupt = onInterrupt(io.signals);
  // Stops the wait when the source breaks half way, the user interrupts, or Redis refuses a write.
  const stop = new AbortController();
  // The first write Redis refuses (full, read-only), or the run's state found gone: no new job, no
  // request (the workers' gate), the producer stops; the rows not settled stay queued.
  const stopped: { fault: RedisFaultError | null } = { fault: null };
  const onFault = (met: RedisFaultError) => {
    stopped.fault ??= met;
    stop.abort();
    workers.pause().catch(() => undefined);
  };
  const stopOnFault = runtime.health.onFault(onFault);
  const deps = { ...runtime, prefix: runtime.config.prefix };
  if (runtime.health.fault) onFault(runtime.health.fault);
  try {
    let announce: (id: string) => void = () => {};
    const runId = new Promise<string>((resolve) => {
      announce = (id) => {
        runIdKnown = id;
        serveSeller();
        if (spec.ownQueue)
          workers.serve({ ...seller, queueName: queueNameOf(runtime.keys, { ...spec, id }) });
        resolve(id);
      };
    });
    interrupt.signal.addEventListener(
      'abort',
      () => {
        stop.abort();
        // A source that stalls (a slow feed) would keep the producer waiting for its next row.
        prepared.close().catch(() => undefined);
      },
      { once: true },
    );
    // A wait that ends on a pause (exit 3, 4 or 6) while the producer holds at the high-water mark:
    // the rest of the source stays unread, and the run open for its queued rows (issue 12).
    const leave = new AbortController();
    // Its source's run was queued already: this run's own webhook is told of that run by this process.
    let joined: Promise<JoinedRunHook | null> = Promise.resolve(null);
    // A run that waits attaches to an earlier run of its source only once that one is read to the
    // end (or reads the source itself); with --no-wait it attaches at once and exits on a pause.
    const enqueue = flags.wait ? enqueueOrAttach : enqueueRun;
    const production = enqueue(deps, spec, prepared.rows, {
      onRunCreated: (run) => announce(run.id),
      onEarlierRunsSettled: serveSeller,
      onReaderWatch: (earlier, upToMs) => {
        progress.stop();
        say(io, `catalog-sync: ${readerWatchText(runtime, earlier, upToMs)}\n`);
      },
      sourceRows: prepared.sourceRows,
      firstRows: { chunks: chunksAtOnceFor(flags.concurrency), begun },
      signal: interrupt.signal,
      leaveUnread: leave.signal,
      assertHealthy: () => {
        if (stopped.fault) throw stopped.fault;
      },
    }).then(
      (result) => {
        if (result.kind === 'already-queued') {
          runtime.logger.warn({ run: result.runId }, 'this source is already queued: waiting for that run');
          joined = joinedRunHook(runtime, spec, result.runId).then(async (hook) => {
            await hook?.atJoin();
            return hook;
          });
          announce(result.runId);
        }
        return 'read' as const;
      },
      async (error: unknown) => {
        if (error instanceof SourceLeftUnreadError) return error;
        const broke = sourceBroke(error, runIdKnown);
        // The source broke half way (a feed dropped, a store's page failed, a fatal line): its run
        // ends early once the rows under way settle (here or elsewhere), and the wait goes on until
        // then; what it wrote is reported, not left to a one-line error.
        if (broke && !stopped.fault && !interrupt.signal.aborted && (await endingEarly(runtime, runIdKnown)))
          return broke;
        stop.abort();
        if (stopped.fault || runtime.health.note(error)) return 'faulted' as const;
        if (error instanceof RunInterruptedError || interrupt.signal.aborted) return 'interrupted' as const;
        if (broke) return broke;
        throw asUsageError(error);
      },
    );
    // A run that Redis refused to create has no id.
    const id = await Promise.race([runId, production.then((read) => (read === 'faulted' ? null : runId))]);
    let waited: WaitResult = { kind: 'stopped' };
    let sourceRead: Awaited<typeof production> = 'faulted';
    if (id !== null) {
      // Said in words, not only in the bar or a JSON log line: a cron mail shows why nothing moves.
      const onWaiting = async (run: RunRecord, until: number) => {
        progress.stop();
        say(io, await waitingLine(runtime, spec, run.id, until));
        // A pause of the run this one joined, begun as it waits: its own webhook hears of it too.
        await (await joined.catch(() => null))?.atPause(run);
      };
      const onLook = (run: RunRecord) => plan.look(runtime, run);
      const waitOptions = { wait: flags.wait, progress, signal: stop.signal, wake, onWaiting, onLook };
      const waiting = waitForRun(runtime, id, waitOptions).then((result) => {
        if (result.kind !== 'done' && result.kind !== 'held') leave.abort();
        return result;
      });
      waiting.catch(() => undefined);
      try {
        [waited, sourceRead] = await Promise.all([waiting, production]);
      } catch (error) {
        if (!stopped.fault && !runtime.health.note(error)) throw error;
      }
    }
    progress.stop();
    // From each outcome said on, an interrupt cuts only the closing short (run-closing.ts).
    if (stopped.fault) {
      const code = await reportFault(io, runtime, stopped.fault, runIdKnown, prepared);
      closing.hear(interrupt, runIdKnown === null ? 'the run had stopped' : `run ${runIdKnown} had stopped`);
      return code;
    }
    if (id === null) throw new Error('the run was not created, and no Redis fault says why');
    if (interrupt.signal.aborted) {
      if (sourceRead !== 'interrupted') say(io, interruptedLine(interrupt.name, spec, id, 'run'));
      else {
        // Its rows under way settle first: the line counts what stays written.
        await closeWithinDeadline(runtime, workers.close());
        say(io, interruptedReadLine(interrupt.name, id, await runtime.runs.get(id)));
      }
      return interrupt.exitCode();
    }
    if (sourceRead instanceof SourceBroke) {
      // This process's chunks settle first (the wait ended with the run, or on a pause): the
      // summary says what they wrote.
      await closeWithinDeadline(runtime, workers.close());
      const code = await reportSourceBroke(io, runtime, prepared, flags, id, sourceRead);
      closing.hear(interrupt, `run ${id} had ended`);
      return code;
    }
    const leftUnread = sourceRead instanceof SourceLeftUnreadError ? sourceRead : null;
    const joinedHook = await joined.catch(() => null);
    let untold: string | null | undefined = null;
    let code: number;
    try {
      code = await reportOutcome(io, runtime, prepared, flags, id, waited, leftUnread, keyKnown);
    } finally {
      // Told even when the report could not be written: the run ended all the same.
      untold = await joinedHook?.atEnd(waited);
    }
    if (untold) say(io, untold);
    const ended = waited.kind === 'done' || waited.kind === 'held';
    closing.hear(interrupt, `run ${id} had ${ended ? 'ended' : 'stopped'}`);
    // This process's worker that ended the run logs `run <id> done` as its chunk finishes, a moment
    // after the wait saw it: closed first, so that a collector's last line is the summary.
    if (waited.kind === 'done') await closeWithinDeadline(runtime, workers.close(), closing.signal);
    if (waited.kind !== 'stopped') logRunSummary(io.stderr, runtime.logger, waited.run, waited.kind, code);
    return code;
  } finally {
    // This process probes the seller no more: `status` must not promise a probe. Not awaited: sent
    // before the connection's QUIT, it never holds the end up when Redis is gone.
    void stopMarking();
    stopOnFault();
    if (!closing.hears(interrupt)) interrupt.dispose();
    progress.stop();
    // With Redis gone, BullMQ cannot hand jobs back; their locks expire and another worker takes them.
    await closeWithinDeadline(runtime, workers.close(), closing.signal);
    // Its own deadline, not chained to the close: a close can outlast its deadline (a chunk's
    // daily-limit pause met as the workers close), and the dry run is to be ended all the same.
    await closeWithinDeadline(runtime, closeOwnQueueOf(runtime, deps, spec, runIdKnown));
    await prepared.close();
  }
}
