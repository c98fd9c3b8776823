import { once } from 'node:events';
import { stringify } from 'csv-stringify';
import { ERROR_COLUMN } from '../catalog/index.js';
import { guardCell } from '../csv-guard.js';
import { terminalSafe } from '../terminal-safe.js';
import { type FailedSourceRow, failedSourceRows, type SourceShape } from './failed-rows.js';
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

/** One line of the file: the row's kept values (blank where the record had no cell), then its reason. */
export function failedReportLine(failed: FailedSourceRow, kept: readonly number[]): string[] {
  return [...kept.map((i) => failed.values[i] ?? ''), failed.error];
}

/**
 * CONTRACT `report <run-id> --failed-only`: the source rows that failed or were invalid, in source
 * order, as the source wrote them (header and delimiter; written as UTF-8), plus `error`. Every cell
 * passes guardCell, and the CSV reader takes a guard off again (csv-header.ts, sourceCell), so the
 * file, fixed, imports with the values the source held. Streamed; resolves to the rows written.
 */
export async function writeFailedRows(
  runs: RunStore,
  run: RunRecord,
  shape: SourceShape,
  out: NodeJS.WritableStream,
  options: FailedReportOptions = {},
): Promise<number> {
  const guard = options.terminal ? (value: string) => terminalSafe(guardCell(value)) : guardCell;
  const csv = stringify({ delimiter: shape.delimiter });
  csv.pipe(out, { end: false });
  const { kept, names } = failedReportColumns(shape.header);
  const write = async (cells: string[]) => {
    if (!csv.write(cells.map(guard))) await once(csv, 'drain');
  };
  await write(names);
  let written = 0;
  for await (const failed of failedSourceRows(runs, run)) {
    await write(failedReportLine(failed, kept));
    written++;
  }
  csv.end();
  await once(csv, 'end');
  return written;
}
