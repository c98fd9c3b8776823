import type { Command } from 'commander';
import { countOf } from '../../count-words.js';
import { checkOutputFile } from '../../output-check.js';
import { writeToFile } from '../../output-file.js';
import { leftUnreadText, readerStopped } from '../../queue/producing-mark.js';
import { writeFailedRows } from '../../runs/failed-report.js';
import { sourceShape } from '../../runs/failed-rows.js';
import { writeReport, writeReportFile } from '../../runs/report.js';
import type { RunRecord } from '../../runs/run-store.js';
import { terminalSafe } from '../../terminal-safe.js';
import type { CliIo } from '../program.js';
import { noRunLine } from '../run-not-found.js';
import { type Runtime, withRuntime } from '../runtime.js';
import { UsageError } from '../usage-error.js';

interface ReportFlags {
  out?: string;
  failedOnly?: boolean;
  redisUrl?: string;
}

export function registerReport(program: Command, io: CliIo): void {
  program
    .command('report <run-id>')
    .description(
      'the per-row result file of a run (CSV: row,key,action,product_id,status,error,note); of a run ' +
        'not over, only the rows settled so far (stderr says how many are still to settle)',
    )
    .option('--out <file>', 'write it to a file instead of standard output')
    .option(
      '--failed-only',
      "only the source rows that failed or were invalid, in the source's own columns (header, order, " +
        'delimiter; as UTF-8), plus a last column `error`; fixed, that file imports as is (`error` is ignored)',
    )
    .option('--redis-url <url>', 'the Redis of queues and runs (overrides REDIS_URL and REDIS_CLUSTER)')
    .action(async (runId: string, flags: ReportFlags) => {
      if (flags.out) await checkOutputFile(flags.out, '--out');
      await withRuntime(io, flags.redisUrl ? { redisUrl: flags.redisUrl } : {}, async (runtime) => {
        const run = await runtime.runs.get(runId);
        if (!run) throw new UsageError(noRunLine(runId, runtime.config));
        if (flags.failedOnly) return reportFailedRows(io, runtime, run, flags.out);
        const { unsettled } = flags.out
          ? await writeReportFile(runtime.runs, runId, flags.out)
          : await writeReport(runtime.runs, runId, io.stdout, { terminal: true });
        // One look at the reader's mark, as `status` takes it: a process gone is not said to read.
        const said = unsettledLine(run, unsettled, await readerStopped(runtime, run));
        // On stderr: the CSV stays a clean CSV. The run's state is read from Redis: shown, never obeyed.
        if (said) io.stderr.write(terminalSafe(`catalog-sync: ${said}\n`));
      });
    });
}

/**
 * What a report of a run not over left out: its rows not settled yet have no line (a queued row is
 * no action the contract knows), so a script counting the report's failures counts none of them.
 * Null for a run that ended whole.
 */
export function unsettledLine(
  run: Pick<RunRecord, 'id' | 'state' | 'produced' | 'sourceId'>,
  unsettled: number,
  /** Its source was left unread by a process that stopped (producing-mark.ts readerStopped). */
  stopped = false,
): string | null {
  const over = run.state !== 'queued' && run.state !== 'running';
  if (over && unsettled === 0) return null;
  const readSoFar = run.produced ? '' : ' read so far';
  const rows = countOf(unsettled, `row${readSoFar}`, `rows${readSoFar}`);
  const notListed = unsettled === 1 ? 'is not listed' : 'are not listed';
  // A run that ended with rows never settled (outcomes lost from Redis): said, never passed over.
  if (over)
    return `run ${run.id} ended (${run.state}) with ${rows} never settled: ${unsettled === 1 ? 'it is' : 'they are'} not listed`;
  const listed =
    unsettled === 0 ? `every row${readSoFar} is settled and listed` : `${rows} still to settle ${notListed}`;
  // Left unread, it never ends by itself: how to end it, not to report it again once it ends.
  if (stopped) return `run ${run.id} is not over (${run.state}): ${listed}; ${leftUnreadText(run)}`;
  const reading = run.produced ? '' : ', its source is still being read';
  return `run ${run.id} is not over (${run.state}): ${listed}${reading}; report it again once it ends`;
}

async function reportFailedRows(io: CliIo, runtime: Runtime, run: RunRecord, out?: string): Promise<void> {
  const shape = await sourceShape(runtime.runs, run.id);
  if (!shape) {
    throw new UsageError(
      `run ${run.id} holds no source rows (it ran before catalog-sync kept them): use \`report ${run.id}\``,
    );
  }
  const { failed: written, parents } = out
    ? await writeToFile(out, (file) => writeFailedRows(runtime.runs, run, shape, file))
    : await writeFailedRows(runtime.runs, run, shape, io.stdout, { terminal: true });
  // A row counted failed whose values were not kept (settled by a version that did not keep them).
  const failed = run.counts['status:failed'] ?? 0;
  // Only a run not over has rows still to settle: a held or cancelled one settled all of its rows.
  const notOver = run.state === 'queued' || run.state === 'running';
  const unsettled = notOver ? ` (run ${run.state}: rows still to settle are not listed)` : '';
  const missing =
    failed > written
      ? `; ${countOf(failed - written, 'failed row holds', 'failed rows hold')} no source values`
      : '';
  const withParents = parents > 0 ? `, with ${countOf(parents, 'row')} they take product fields from` : '';
  // The run's state is read from Redis: shown, never obeyed by the terminal.
  io.stderr.write(
    terminalSafe(
      `catalog-sync: ${countOf(written, 'failed row')}${out ? ` written to ${out}` : ''}${withParents}${missing}${unsettled}\n`,
    ),
  );
}
