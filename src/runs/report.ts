import { once } from 'node:events';
import { stringify } from 'csv-stringify';
import { EDGE_SPACE, guardCell, QUOTED_MATCH } from '../csv-guard.js';
import { type WriteOptions, writeToFile } from '../output-file.js';
import { terminalSafe } from '../terminal-safe.js';
import type { RunStore } from './run-store.js';

export const REPORT_COLUMNS = ['row', 'key', 'action', 'product_id', 'status', 'error', 'note'] as const;

export interface ReportOptions {
  /**
   * The report goes to a terminal or a pipe (`report <run-id>` on standard output): control characters
   * in its cells (a source's key, an API's reason) are shown as `\xHH`. A report file (`--out`,
   * `--report`) keeps them as they are.
   */
  terminal?: boolean;
}

/** What a report holds: its lines, and the rows of a run not over left out (not settled yet). */
export interface ReportWritten {
  lines: number;
  unsettled: number;
}

/**
 * Writes a run's report (README, The report): a header, one line per settled source row in source
 * order, then one `missing` line per remote product the source does not hold. A row not settled yet
 * has no line (the caller says how many: `unsettled`). Streamed from Redis, so a million-row report
 * never sits in memory. Every cell passes guardCell: a key or a reason that starts like a formula
 * (`=HYPERLINK(…)`) is written with a leading `'` (csv-guard.ts).
 */
export async function writeReport(
  runs: RunStore,
  runId: string,
  out: NodeJS.WritableStream,
  options: ReportOptions = {},
): Promise<ReportWritten> {
  const csv = stringify({
    header: true,
    columns: [...REPORT_COLUMNS],
    quoted_match: [QUOTED_MATCH, EDGE_SPACE],
  });
  csv.pipe(out, { end: false });
  const cell = options.terminal ? (value: string) => terminalSafe(guardCell(value)) : guardCell;
  let lines = 0;
  let unsettled = 0;
  for await (const o of runs.outcomes(runId, () => unsettled++)) {
    const line = [o.row ?? '', o.key, o.action, o.productId ?? '', o.status, o.error, o.note ?? ''].map(
      (value) => cell(String(value)),
    );
    if (!csv.write(line)) await once(csv, 'drain');
    lines++;
  }
  csv.end();
  await once(csv, 'end');
  return { lines, unsettled };
}

export function writeReportFile(
  runs: RunStore,
  runId: string,
  path: string,
  options: WriteOptions = {},
): Promise<ReportWritten> {
  return writeToFile(path, (file) => writeReport(runs, runId, file), options);
}
