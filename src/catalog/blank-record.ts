import type { SkippedRow, SourceRecord } from '../interfaces.js';
import { isBlankText } from './invisible-text.js';

/**
 * A record with every cell blank, spaces or invisible characters only (the `,,,` rows a spreadsheet
 * saves after its data, a JSON item with empty values, a lone zero-width space: invisible-text.ts):
 * it stands for no product. A record that could not be read
 * whole is never blank: its cells may not all be in `values` (more cells than the header has).
 */
export function isBlankRecord(record: SourceRecord): boolean {
  if (record.problem !== undefined) return false;
  for (const name in record.values) if (!isBlankText(record.values[name] ?? '')) return false;
  return true;
}

/**
 * Such a row is no mistake of the seller's, so it does not make the run's exit code 1 night after
 * night: it is `skipped` (status ok), still listed in the report and counted in the summary. It has
 * no key, so `--missing` does not count it as a row with no key (keyless-rows.ts).
 */
export function blankRow(row: number, line: number): SkippedRow {
  return { kind: 'skipped', row, line, reason: 'blank row: every cell is empty' };
}
