import { countOf } from '../count-words.js';
import { finaliseIfSettled } from '../queue/finalise.js';
import { settleUnsentRows } from '../queue/unsent-rows.js';
import { ownConnection } from '../runs/connection-words.js';
import type { RunRecord } from '../runs/run-store.js';
import { formatSummary, runCounts } from '../runs/summary.js';
import { terminalSafeLine } from '../terminal-safe.js';
import { ExitCode } from './exit-codes.js';
import { asUsageError, type PreparedRun } from './prepare-run.js';
import type { CliIo } from './program.js';
import type { RunFlags } from './run-flags.js';
import { writeRunReport } from './run-outcome.js';
import { logRunSummary } from './run-summary-line.js';
import type { Runtime } from './runtime.js';
import { UsageError } from './usage-error.js';

/** The source failed half way through its run's read (a feed dropped, a store's page, a fatal line). */
export class SourceBroke {
  constructor(readonly error: UsageError) {}
}

/**
 * A failure of the source's read once its run exists: the run is ended early (enqueue-run.ts), and
 * `run` reports it (reportSourceBroke) rather than exiting on the error alone. Null for a failure
 * that is no source's (a bug keeps its stack trace), or before the run exists (the one line says it all).
 */
export function sourceBroke(error: unknown, runId: string | null): SourceBroke | null {
  if (runId === null) return null;
  const usage = asUsageError(error);
  return usage instanceof UsageError ? new SourceBroke(usage) : null;
}

/**
 * What `run` says of a run whose source broke half way, once it ended (its rows under way settled,
 * here or in another process): what the rows read became and what was written (the summary), the
 * report file, and one line naming the cause and the run; exit 2 (an unreadable source, README: Exit
 * codes). The chunks still waiting are not sent but reported (settleUnsentRows).
 */
export async function reportSourceBroke(
  io: CliIo,
  runtime: Runtime,
  prepared: PreparedRun,
  flags: RunFlags,
  id: string,
  broke: SourceBroke,
): Promise<number> {
  const ended = await runtime.runs.get(id);
  // Only a run its producer ended early is reported so; anything else is the one line it was.
  if (!ended?.aborted && ended?.endingEarly === undefined) throw broke.error;
  if (!ended.aborted) {
    // Not ended yet (the wait stopped on a pause): a chunk put back since the producer's look, or
    // handed back by this process's workers as they closed, is not sent either.
    const deps = { ...runtime, prefix: runtime.config.prefix };
    // Its reader is this process, which queued or settled every row it counted.
    await settleUnsentRows(deps, ended, { readerDied: false });
    await finaliseIfSettled(deps, id);
  }
  const run = (await runtime.runs.get(id)) ?? ended;
  io.stdout.write(formatSummary(run, ownConnection(prepared.spec), prepared.detections));
  io.stderr.write(
    `catalog-sync: ${terminalSafeLine(`${sentence(broke.error.message)} ${endedEarlyText(run)}`)}\n`,
  );
  await writeRunReport(io, runtime, flags, id, prepared.reportSeen);
  logRunSummary(io.stderr, runtime.logger, run, 'source-broke', ExitCode.usage);
  return ExitCode.usage;
}

/** The cause as a sentence: a line that ends in a question (`…a login or maintenance page?`) gets no period. */
function sentence(line: string): string {
  return /[.?!]$/.test(line) ? line : `${line}.`;
}

/** `Run … ended early after 200 rows: 1 updated, …`: what stays written, and where each row is told. */
export function endedEarlyText(run: RunRecord): string {
  const c = runCounts(run);
  const rows = countOf(run.total, 'row');
  // A chunk of it is still under way in another process: the run ends when its rows settle.
  if (!run.aborted)
    return `Run ${run.id} ends early after ${rows} of the source, once the rows under way elsewhere settle: catalog-sync status ${run.id}. Run it again once the source reads to its end`;
  if (run.dryRun)
    return `Dry run ${run.id} ended early after ${rows} (nothing was written): run it again once the source reads to its end`;
  const wrote =
    c.created + c.updated === 0
      ? 'nothing was written'
      : `what it wrote stays written (${c.created} created, ${c.updated} updated)`;
  // A run that read part of its source cannot tell a product gone from one it did not read.
  const kept = run.missing ? ', and --missing deactivated nothing' : '';
  return (
    `Run ${run.id} ended early after ${rows} of the source: ${wrote}; the rest of the source was not synced${kept}. ` +
    `Each row read: catalog-sync report ${run.id}. Run it again once the source reads to its end`
  );
}
