import type { Command } from 'commander';
import { commander } from '../cjs-packages.js';
import { readApiConfig } from '../config.js';
import { countOf } from '../count-words.js';
import { EXPORT_RETRY } from '../defaults.js';
import { type CsvShape, exportRecords } from '../exports/export-file.js';
import { checkOutputFile } from '../output-check.js';
import { writeToFile } from '../output-file.js';
import { DailyLimitError, SellerApiClient, SellerApiError, UnauthorizedError } from '../seller-api/index.js';
import { afterTries, readRetry } from '../sync/error-policy.js';
import { ApiUnreachableError } from '../sync/seller-pause.js';
import { unreachedCause } from '../sync/unreached.js';
import { terminalSafeLine } from '../terminal-safe.js';
import { addConnectionOptions, type ConnectionFlags } from './connection-options.js';
import { ExitCode } from './exit-codes.js';
import type { CliIo } from './program.js';
import { onInterrupt } from './signals.js';
import { spentLimitLine } from './spent-limit-line.js';

/** The flags every `… export` command takes. */
export interface ExportFlags extends ConnectionFlags {
  out?: string;
  format?: string;
}

/** What differs between `orders export` and `products export`. */
export interface ExportKind {
  /** `order`, `product`: said in the count line (`1 product exported`, `7 products exported`). */
  noun: string;
  list(client: SellerApiClient): AsyncIterable<ReadonlyArray<{ fields: Record<string, unknown> }>>;
  csv: CsvShape;
}

/**
 * JSON lines go by two names, and both exports write the same thing: each takes both, so that a
 * user who learnt one command's name is not refused by the other. `ndjson` is the documented one.
 */
const FORMATS = ['csv', 'ndjson', 'jsonl'];

/** Adds the options of an export command: `--out`, `--format csv|ndjson|jsonl`, and how to reach the API. */
export function exportOptions(command: Command): Command {
  command
    .option('--out <file>', 'write to a file instead of standard output')
    .addOption(
      new (commander().Option)(
        '--format <format>',
        "csv or ndjson (alias: jsonl), one JSON record a line (default: from --out's extension, " +
          '.jsonl/.ndjson/.json, else csv)',
      ).choices(FORMATS),
    );
  return addConnectionOptions(command, { redis: false });
}

/** Every record of every page to standard output or `--out`; resolves to the exit code. */
export async function runExport(io: CliIo, flags: ExportFlags, kind: ExportKind): Promise<number> {
  const api = readApiConfig(io.env, flags, false, io.keysFile);
  const client = new SellerApiClient({
    ...api,
    // A page whose every try got no answer (refused, or closed unanswered) is the API out of reach.
    retry: readRetry(EXPORT_RETRY, (error, tries) => afterTries(error, api.baseUrl, Date.now(), tries)),
    ...(io.answerCaps ? { answerCaps: io.answerCaps } : {}),
  });
  const lines = flags.format ? flags.format !== 'csv' : /\.(jsonl?|ndjson)$/i.test(flags.out ?? '');
  if (flags.out) await checkOutputFile(flags.out, '--out');
  // SIGTERM/SIGINT: the export stops, its scratch folder goes, and the exit code says which signal.
  const interrupt = onInterrupt(io.signals);
  const format = lines ? 'lines' : 'csv';
  const exportTo = (out: NodeJS.WritableStream, terminal: boolean) =>
    exportRecords(kind.list(client), kind.csv, { format, out, terminal, signal: interrupt.signal });
  try {
    const count = flags.out
      ? await writeToFile(flags.out, (file) => exportTo(file, false))
      : await exportTo(io.stdout, true);
    io.stderr.write(
      `catalog-sync: ${countOf(count, kind.noun)} exported${flags.out ? ` to ${flags.out}` : ''}\n`,
    );
    return ExitCode.ok;
  } catch (error) {
    if (interrupt.signal.aborted) {
      const left = flags.out ? `: ${flags.out} is not complete` : '';
      io.stderr.write(`catalog-sync: ${kind.noun}s export interrupted (${interrupt.name})${left}\n`);
      return interrupt.exitCode();
    }
    if (error instanceof ApiUnreachableError) {
      io.stderr.write(`catalog-sync: ${terminalSafeLine(error.message)}\n`);
      return ExitCode.apiUnreachable;
    }
    if (!(error instanceof SellerApiError)) throw error;
    const unreached = unreachedCause(error);
    if (unreached !== null) {
      io.stderr.write(`catalog-sync: cannot reach ${api.baseUrl}: ${unreached}\n`);
      return ExitCode.apiUnreachable;
    }
    if (error instanceof DailyLimitError) {
      // As `ping`: exit 4 (README, Exit codes), not 2, which sends an operator looking for a typo.
      io.stderr.write(`catalog-sync: ${spentLimitLine(api, error)}\n`);
      return ExitCode.pausedDailyLimit;
    }
    io.stderr.write(`catalog-sync: ${terminalSafeLine(error.message)}\n`);
    return error instanceof UnauthorizedError ? ExitCode.unauthorized : ExitCode.usage;
  } finally {
    interrupt.dispose();
  }
}
