import { once } from 'node:events';
import { stringify } from 'csv-stringify';
import { ERROR_COLUMN } from '../catalog/index.js';
import { EDGE_SPACE, guardCell, QUOTED_MATCH } from '../csv-guard.js';
import { terminalSafe } from '../terminal-safe.js';
import { type FailedSourceRow, failedSourceRows, keptAsFailed, type SourceShape } from './failed-rows.js';
import type { RunRecord, RunStore } from './run-store.js';

export interface FailedReportOptions {
  /** To a terminal or a pipe: control characters are shown as `\xHH` (a file keeps them). */
  terminal?: boolean;
}

/**
 * The columns written: the source's, in its order and spelling, then `error`. A column of the
 * source's own named `error` is left out: every preset ignores it on import anyway (error-column.ts),
 * and two columns of one name could not be read back.
 */
export function failedReportColumns(header: readonly string[]): { kept: number[]; names: string[] } {
  const kept = header.flatMap((name, i) => (name.trim() === ERROR_COLUMN ? [] : [i]));
  return { kept, names: [...kept.map((i) => header[i] ?? ''), ERROR_COLUMN] };
}

/** How many of the ascending `rows` are below `limit` (binary search). */
function rowsBefore(rows: readonly number[], limit: number): number {
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((rows[middle] as number) < limit) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** One line of the file: the row's kept values (blank where the record had no cell), then its reason. */
export function failedReportLine(failed: FailedSourceRow, kept: readonly number[]): string[] {
  return [...kept.map((i) => failed.values[i] ?? ''), failed.error];
}

/**
 * `report <run-id> --failed-only` (README, Fixing the rows that failed): the source rows that failed or
 * were invalid, in source
 * order, as the source wrote them (header and delimiter; written as UTF-8), plus `error`. Every cell
 * passes guardCell, and the CSV reader takes a guard off again (csv-header.ts, sourceCell), so the
 * file, fixed, imports with the values the source held. A failed row that took product fields from
 * other rows (a variant's parent, a Shopify handle's title and image rows) has them written too,
 * each once, in source order (a row before it that is not written yet goes just before it): without
 * them it would not import as the source meant it (a Shopify variant has no title of its own).
 * Streamed; resolves to the failed rows written and the rows written for them.
 */
export async function writeFailedRows(
  runs: RunStore,
  run: RunRecord,
  shape: SourceShape,
  out: NodeJS.WritableStream,
  options: FailedReportOptions = {},
): Promise<{ failed: number; parents: number }> {
  // Each kept value is read from Redis: text whatever JSON it was stored as.
  const cell = (value: unknown) => guardCell(typeof value === 'string' ? value : String(value ?? ''));
  const guard = options.terminal ? (value: unknown) => terminalSafe(cell(value)) : cell;
  // Quoted as the report is (report.ts): a separator, or white space at a cell's edge.
  const csv = stringify({ delimiter: shape.delimiter, quoted_match: [QUOTED_MATCH, EDGE_SPACE] });
  csv.pipe(out, { end: false });
  const { kept, names } = failedReportColumns(shape.header);
  const write = async (cells: string[]) => {
    if (!csv.write(cells.map(guard))) await once(csv, 'drain');
  };
  await write(names);
  // Only the rows others take fields from are remembered (a million failed rows are never held).
  const parentsDone = new Set<number>();
  /** Rows written for a failed row, waiting for their place in source order: their values, that row. */
  const waiting = new Map<number, { values: string[]; forRow: number }>();
  /** The same rows in ascending order: taken from the front, never sorted whole again. */
  const order: number[] = [];
  const counts = { failed: 0, parents: 0 };
  const wait = (row: number, entry: { values: string[]; forRow: number }) => {
    waiting.set(row, entry);
    order.splice(rowsBefore(order, row), 0, row);
  };
  const writeWaitingBefore = async (limit: number) => {
    for (const row of order.splice(0, rowsBefore(order, limit))) {
      if (!waiting.has(row)) continue;
      const { values, forRow } = waiting.get(row) as { values: string[]; forRow: number };
      const error = `not failed: written back for row ${forRow}, which takes product fields from this row`;
      await write(failedReportLine({ row, values, error }, kept));
      waiting.delete(row);
      parentsDone.add(row);
      counts.parents++;
    }
  };
  for await (const failed of failedSourceRows(runs, run)) {
    const fresh = (failed.parents ?? []).filter((p) => !parentsDone.has(p.row) && !waiting.has(p.row));
    // One that failed itself before this row was written in its place already.
    const failedBefore = await keptAsFailed(
      runs,
      run.id,
      fresh.filter((p) => p.row < failed.row).map((p) => p.row),
    );
    for (const parent of fresh) {
      if (failedBefore.has(parent.row)) parentsDone.add(parent.row);
      else wait(parent.row, { values: parent.values, forRow: failed.row });
    }
    await writeWaitingBefore(failed.row);
    // A row an earlier one takes fields from that failed itself: written here, with its own error.
    if (waiting.delete(failed.row)) parentsDone.add(failed.row);
    await write(failedReportLine(failed, kept));
    counts.failed++;
  }
  await writeWaitingBefore(Number.POSITIVE_INFINITY);
  csv.end();
  await once(csv, 'end');
  return counts;
}
