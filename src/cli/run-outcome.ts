import { countOf } from '../count-words.js';
import { type FileSeen, OutputFileError } from '../output-file.js';
import type { SourceLeftUnreadError } from '../queue/producer-stops.js';
import { ownConnection } from '../runs/connection-words.js';
import { readLearnedLimit } from '../runs/learned-limit.js';
import { writeReportFile } from '../runs/report.js';
import type { RunRecord } from '../runs/run-store.js';
import { formatSummary, runCounts } from '../runs/summary.js';
import { outOfReachText } from '../sync/seller-pause.js';
import { SNAPSHOT_CAPPED, SNAPSHOT_FAILED } from '../sync/snapshot.js';
import { terminalSafe } from '../terminal-safe.js';
import { ExitCode } from './exit-codes.js';
import type { PreparedRun } from './prepare-run.js';
import type { CliIo } from './program.js';
import { pausedMessage } from './progress.js';
import { queuedBesideLine } from './queued-beside.js';
import { rejectedKeyLine } from './rejected-key-line.js';
import type { RunFlags } from './run-flags.js';
import type { Runtime } from './runtime.js';
import { UsageError } from './usage-error.js';
import type { WaitResult } from './wait-for-run.js';

/** What `run` says and which exit code it returns once the wait is over. */
export async function reportOutcome(
  io: CliIo,
  runtime: Runtime,
  prepared: PreparedRun,
  flags: RunFlags,
  id: string,
  waited: WaitResult,
  leftUnread: SourceLeftUnreadError | null,
  /** The key's seller had anything recorded before this run (rejected-key-line.ts): a 401 means revoked. */
  keyKnown: boolean,
): Promise<number> {
  const { spec } = prepared;
  // A dry run with a queue of its own is ended as `run` stops serving it (own-queue-end.ts).
  const ended = waited.kind !== 'stopped' && waited.run.ownQueue === true;
  const dryEnded = `Dry run ${id} is ended (nothing was written)`;
  // Said after the pause's own line: what became of the rows the producer did not read.
  const unread =
    leftUnread && !ended
      ? ` Only its first ${countOf(leftUnread.rowsQueued, 'row was', 'rows were')} read (the queue was full): the next \`catalog-sync run\` or \`import\` of this source ends run ${id} and reads the source anew.`
      : '';
  switch (waited.kind) {
    case 'stopped':
      throw new Error('the run was stopped while its source was still being read');
    case 'unauthorized':
      say(
        io,
        `${await rejectedKeyLine(runtime, spec, waited.run, ended, keyKnown)}${unread ? `.${unread}` : ''}\n`,
      );
      return ExitCode.unauthorized;
    case 'unreachable':
      // The base URL answers, with 404 where the API's own endpoints are: a mistyped base URL.
      if (waited.noApi) {
        say(
          io,
          `catalog-sync: ${outOfReachText(spec.baseUrl, waited.failure, true)}. ` +
            (ended
              ? `${dryEnded}.\n`
              : `Run ${id}'s rows stay queued, none sent: drop them with catalog-sync cancel ${id}, then run again with the right base URL.${unread}\n`),
        );
        return ExitCode.usage;
      }
      say(
        io,
        `catalog-sync: ${outOfReachText(spec.baseUrl, waited.failure, false)}. ` +
          (ended
            ? `${dryEnded}; run it again once the API answers.\n`
            : `Run ${id}'s rows stay queued; ` +
              `they go on with the next \`catalog-sync run\` or any \`catalog-sync worker\` once the API answers; ` +
              `a mistyped base URL: drop them with catalog-sync cancel ${id}.${unread}\n`),
      );
      return ExitCode.apiUnreachable;
    case 'paused': {
      const cause = await pauseCause(runtime, spec, id);
      say(
        io,
        `catalog-sync: ${pausedMessage(waited.until, Date.now())} on ${cause}. ` +
          (ended
            ? `${dryEnded}; run it again after the reset.\n`
            : `Run ${id}'s rows stay queued and resume after the reset with any \`catalog-sync worker\`.${unread}\n`),
      );
      return ExitCode.pausedDailyLimit;
    }
    case 'held':
    case 'done': {
      // A field name no listed product shows: refused before any write, one line (listed-fields.ts).
      if (waited.run.fieldsRefused) {
        say(io, `catalog-sync: ${waited.run.fieldsRefused}\n`);
        return ExitCode.usage;
      }
      for (const note of prepared.dryRunNotes) io.stderr.write(note);
      const learned = waited.run.dryRun
        ? await readLearnedLimit(runtime.redis, runtime.keys, spec.sellerRef)
        : null;
      io.stdout.write(formatSummary(waited.run, ownConnection(spec), prepared.detections, learned));
      const beside = waited.run.ownQueue ? await queuedBesideLine(runtime, waited.run) : null;
      if (beside) say(io, `${beside}\n`);
      await writeRunReport(io, runtime, flags, id, prepared.reportSeen);
      return endedRunExitCode(io, runtime, waited.run);
    }
  }
}

/**
 * `--report FILE`: the run's report written there, and said (after the summary). `seen`: what was
 * there before the run (its check). A file put there since, by another run (two cron firings of one
 * job), is replaced, the latest report wins, and one line says so: that run's report is not lost
 * unsaid, and `catalog-sync report <its id>` gives it again.
 */
export async function writeRunReport(
  io: CliIo,
  runtime: Runtime,
  flags: Pick<RunFlags, 'report' | 'reportFromJob' | 'reportWithin'>,
  id: string,
  seen: FileSeen | undefined,
): Promise<void> {
  if (!flags.report) return;
  await io.beforeReportWrite?.();
  let replacedAnother = false;
  await writeReportFile(runtime.runs, id, flags.report, {
    noFollow: flags.reportFromJob === true,
    ...(flags.reportWithin ? { within: flags.reportWithin } : {}),
    ...(seen !== undefined ? { sinceCheck: { seen, changed: () => (replacedAnother = true) } } : {}),
  }).catch((error: unknown) => {
    // Exit 2 says the report is missing; the summary above still says how the run ended.
    if (error instanceof OutputFileError)
      throw new UsageError(`--report: ${error.message} (the run ended as the summary says)`);
    throw error;
  });
  io.stdout.write(`  report    ${flags.report}\n`);
  if (replacedAnother) io.stdout.write(`            ${REPLACED_ANOTHER}\n`);
}

/** Said under `report` when the report's path got another file during the run (writeRunReport). */
export const REPLACED_ANOTHER =
  "replaced a file another process put there during this run (another run's report?): " +
  "catalog-sync status --list names the runs, catalog-sync report <run-id> gives a run's report again";

/**
 * The exit code of a run that ended, or is held, by its end state: `run`'s, and `approve`'s once
 * the approved writes settled (README, Exit codes). Says the one line of a capped product list.
 */
export async function endedRunExitCode(io: CliIo, runtime: Runtime, run: RunRecord): Promise<number> {
  // Nothing held was sent: exit 5 says so to cron, whatever else the run did.
  if (run.state === 'held') return ExitCode.held;
  // The seller's products passed a cap of the API's answers: not a row's fault, one line, exit 2.
  const [capped, listFailure] = await runtime.runs.redis.hmget(
    runtime.keys.run(run.id),
    SNAPSHOT_CAPPED,
    SNAPSHOT_FAILED,
  );
  if (capped === '1') {
    say(io, `catalog-sync: ${listFailure ?? "the seller's products passed a cap of the API's answers"}\n`);
    return ExitCode.usage;
  }
  const counts = runCounts(run);
  // Cancelled (by `catalog-sync cancel`) while this run waited: not every row was synced.
  if (run.state === 'cancelled' && !run.supersededBy) return ExitCode.rowsFailed;
  if (counts.invalid + counts.failed + counts.deactivateFailed > 0) return ExitCode.rowsFailed;
  // Superseded by a newer read of its source (queue/supersede.ts): the rows it left unsent are not
  // failures, that run (reported by its own process or worker) sends the source's current values.
  // A cron monitor is not called out for a night the next one took over.
  return run.supersededBy ? ExitCode.superseded : ExitCode.ok;
}

/**
 * What paused the seller, as Redis says it: this run's budget, another run's, or the API's limit.
 * `approve` names it too: the run it sends keeps its `--daily-budget`.
 */
export async function pauseCause(runtime: Runtime, spec: PreparedRun['spec'], id: string): Promise<string> {
  const budgetOf = (await runtime.sellers.status(spec.sellerRef, spec.dailyReset)).pausedByBudgetOf;
  if (budgetOf === undefined) return "the seller's daily request limit";
  if (budgetOf === id) return `the daily budget (--daily-budget ${spec.dailyBudget})`;
  return `run ${budgetOf}'s daily budget (its --daily-budget; \`catalog-sync cancel ${budgetOf}\` lifts it)`;
}

/**
 * The line a run, or an `approve` of one, that waits out a daily pause says as its wait begins (a
 * terminal's bar says the pause too, a log only in JSON): until when, why, and how to stop waiting.
 */
export async function waitingLine(
  runtime: Runtime,
  spec: PreparedRun['spec'],
  id: string,
  until: number,
  command: 'run' | 'approve' = 'run',
): Promise<string> {
  const cause = await pauseCause(runtime, spec, id);
  const [who, stopped] = waiterWords(spec, id, command);
  return (
    `catalog-sync: ${pausedMessage(until, Date.now())} on ${cause}: ${who} waits and goes on by itself then; ` +
    `Ctrl-C stops the wait (${stopped}), --no-wait exits 4 instead\n`
  );
}

/** Who waits, and what a Ctrl-C leaves of it: a run's queued rows, a dry run ended, an approval's rows. */
function waiterWords(spec: PreparedRun['spec'], id: string, command: 'run' | 'approve'): [string, string] {
  if (command === 'approve')
    return [
      `the approval of run ${id}`,
      `the approved rows stay queued for any \`catalog-sync worker\` or another \`catalog-sync approve ${id}\``,
    ];
  return spec.ownQueue
    ? [`dry run ${id}`, 'the dry run is ended']
    : [`run ${id}`, 'its rows stay queued for any `catalog-sync worker`'];
}

/**
 * The line of a run, or an `approve` of one, interrupted (SIGINT, SIGTERM) once its rows are queued:
 * what stays queued, and for whom (a dry run is ended: nothing else serves its own queue).
 */
export function interruptedLine(
  signal: string,
  spec: Pick<PreparedRun['spec'], 'ownQueue'>,
  id: string,
  command: 'run' | 'approve',
): string {
  const what =
    command === 'approve'
      ? `the approved rows of run ${id} stay queued and go on with any \`catalog-sync worker\` or another \`catalog-sync approve ${id}\``
      : spec.ownQueue
        ? `dry run ${id} is ended (nothing was written). Run it again`
        : `run ${id}'s rows stay queued and go on with any \`catalog-sync worker\``;
  return `catalog-sync: interrupted (${signal}): ${what}.\n`;
}

/** A message of `run` on stderr: run ids and seller refs come back from Redis, so they are shown escaped. */
export function say(io: CliIo, text: string): void {
  io.stderr.write(terminalSafe(text));
}
