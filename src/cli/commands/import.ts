import type { Command } from 'commander';
import { webhookOrigin, workersMayNotTellLine } from '../../notify/webhook-url.js';
import { enqueueRun } from '../../queue/enqueue-run.js';
import { RunInterruptedError } from '../../queue/producer-stops.js';
import { endWays, readerWatchText } from '../../queue/producing-mark.js';
import { ownConnection } from '../../runs/connection-words.js';
import type { RunRecord } from '../../runs/run-store.js';
import { terminalSafeLine } from '../../terminal-safe.js';
import { readWebhookHosts } from '../../trust-config.js';
import { rejectedKeyText } from '../key-pause.js';
import { asUsageError, prepareRun } from '../prepare-run.js';
import type { CliIo } from '../program.js';
import { checkRedisRoom, redisFaultLine, remainingNeed } from '../redis-room.js';
import type { RunFlags } from '../run-flags.js';
import { addRunOptions, resolveRunInput } from '../run-options.js';
import { interruptedLine, say } from '../run-outcome.js';
import { withRuntime } from '../runtime.js';
import { BEFORE_THE_RUN, BeforeRun, onInterrupt } from '../signals.js';
import { UsageError } from '../usage-error.js';
import { noWorkerNoticed, workerWaitText } from '../worker-wait.js';

export function registerImport(program: Command, io: CliIo): void {
  addRunOptions(
    program
      .command('import [source]')
      .description('enqueue one import run for the workers and print its run id; exits at once'),
    'import',
  ).action(async (sourceArgument: string | undefined, options: RunFlags, command: Command) => {
    const { source, flags } = await resolveRunInput(
      command,
      sourceArgument,
      options,
      io.env,
      io.network?.lookup,
    );
    // Heard from the start: connecting to Redis and opening the source come before the run exists.
    const before = new BeforeRun(BEFORE_THE_RUN, io.signals);
    const runtimeOptions = {
      ...(flags.redisUrl ? { redisUrl: flags.redisUrl } : {}),
      writes: { allowEviction: flags.allowEviction },
      ...(flags.notify ? { notify: flags.notify } : {}),
      allowPrivateSource: flags.allowPrivateSource,
      before,
    };
    await withRuntime(io, runtimeOptions, async (runtime) => {
      const prepared = await before.during(
        () => prepareRun(io, source, flags, runtime.registry, 'import', before),
        { abandon: (late) => late.close() },
      );
      let lastBackpressureLog = 0;
      let lastPause: string | null = null;
      let runId: string | null = null;
      let created: RunRecord | null = null;
      let stopListening = () => {};
      try {
        await checkRedisRoom(runtime, prepared.rowEstimate, flags.force);
        before.check();
        // No await since the last check: the run's own interrupt takes over before the run is created.
        before.handOver();
        const interrupt = onInterrupt(io.signals);
        stopListening = interrupt.dispose;
        // A source that stalls (a slow feed) would keep the producer waiting for its next row.
        interrupt.signal.addEventListener('abort', () => prepared.close().catch(() => undefined), {
          once: true,
        });
        const result = await enqueueRun(
          { ...runtime, prefix: runtime.config.prefix },
          prepared.spec,
          prepared.rows,
          {
            onRunCreated: (run) => {
              runId = run.id;
              created = run;
            },
            // Stopped between chunks; the run is left open with the rows queued so far, for the workers.
            signal: interrupt.signal,
            interruptLeavesQueued: true,
            sourceRows: prepared.sourceRows,
            onReaderWatch: (earlier, upToMs) =>
              say(io, `catalog-sync: ${readerWatchText(runtime, earlier, upToMs)}\n`),
            assertHealthy: () => runtime.health.assertWritable(),
            // Called every poll while the queue is full: said once a minute, and at once when the
            // reason changes, not four times a second.
            onBackpressure: (waiting, pause) => {
              const now = Date.now();
              if (now - lastBackpressureLog < 60_000 && pause === lastPause) return;
              lastBackpressureLog = now;
              lastPause = pause;
              runtime.logger.info(
                { waiting, run: runId, ...(pause ? { sellerPause: pause } : {}) },
                pause
                  ? `the queue is full and the seller sends nothing (${pause}): waiting before reading more rows`
                  : 'the queue is full: waiting for workers before reading more rows',
              );
            },
          },
        ).catch(async (error: unknown) => {
          if (error instanceof RunInterruptedError)
            throw new UsageError(
              interruptedImportLine(interrupt.name, created, error.rowsQueued),
              interrupt.exitCode(),
            );
          // Redis refused a write (full, read-only) or lost the run: one line, exit 2.
          const fault = runtime.health.note(error);
          if (!fault) throw asUsageError(error);
          const need =
            fault.kind === 'full' ? await remainingNeed(runtime.runs, runId, prepared.rowEstimate) : null;
          throw new UsageError(await redisFaultLine(runtime, fault, need));
        });
        if (interrupt.signal.aborted) {
          // Heard as the read ended: nothing of the source left unread. Interrupted as it waited on
          // the run that holds the source, this import queued nothing (its own run is gone).
          if (result.kind === 'already-queued')
            throw new UsageError(`interrupted (${interrupt.name}) ${BEFORE_THE_RUN}`, interrupt.exitCode());
          io.stdout.write(`${result.run.id}\n`);
          say(io, interruptedLine(interrupt.name, result.run, result.run.id, 'run'));
          io.exitCode = interrupt.exitCode();
          return;
        }
        if (result.kind === 'already-queued') {
          // The id of the queued run is read from Redis.
          const runId = terminalSafeLine(result.runId);
          io.stderr.write(`catalog-sync: this source is already queued as run ${runId}; not queued again\n`);
          io.stdout.write(`${runId}\n`);
        } else {
          io.stdout.write(`${result.run.id}\n`);
        }
        // Said at once, not found out in the morning: nothing will take this run's rows.
        const queued = result.kind === 'already-queued' ? await runtime.runs.get(result.runId) : result.run;
        // Not queued, its webhook is nobody's: the queued run tells its own, and this import waits for nothing.
        if (result.kind === 'already-queued' && flags.notify && queued && queued.notify !== flags.notify)
          io.stderr.write(
            `catalog-sync: --notify ${webhookOrigin(flags.notify)} is not told of run ${terminalSafeLine(result.runId)}: ` +
              `only the webhook that run was queued with is (\`catalog-sync run\` of the source waits for it and tells its own)\n`,
          );
        if (queued && (await noWorkerNoticed(runtime.commands, runtime.keys, queued)))
          io.stderr.write(`catalog-sync: queued, but ${terminalSafeLine(workerWaitText(queued))}\n`);
        // Said at once, not found in a worker's log in the morning (a job file's is checked already).
        const untold = flags.notify ? workersMayNotTellLine(flags.notify, readWebhookHosts(io.env)) : null;
        if (untold && result.kind === 'queued') io.stderr.write(`catalog-sync: queued, but ${untold}\n`);
        // A key the API rejected for the seller: no worker sends with it (rejected-keys.ts).
        const key = io.env[prepared.spec.keyEnv]?.trim();
        const rejected =
          key &&
          (await rejectedKeyText(
            runtime,
            prepared.spec,
            key,
            prepared.spec.keyEnv,
            'no worker sends with it',
            ownConnection(prepared.spec),
          ));
        if (rejected) io.stderr.write(`catalog-sync: queued, but ${terminalSafeLine(rejected)}\n`);
      } finally {
        stopListening();
        await prepared.close();
      }
    }).finally(() => before.handOver());
  });
}

/**
 * `import` interrupted while it read its source: the rows it queued stay queued, the run open until
 * the next run of the source ends it (or `cancel`), as a reader that stopped leaves it.
 */
function interruptedImportLine(signal: string, run: RunRecord | null, rowsQueued: number): string {
  if (run === null) return `interrupted (${signal}) ${BEFORE_THE_RUN}`;
  return (
    `interrupted (${signal}) after queueing ${rowsQueued} of the source's rows: ` +
    `run ${run.id}'s rows stay queued and go on with any \`catalog-sync worker\`; ` +
    `the rest of the source is unread: ${endWays(run)}.`
  );
}
