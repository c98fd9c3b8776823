import type { SourceRecord } from '../interfaces.js';
import { namedValues } from '../named-values.js';

/**
 * `report <run-id> --failed-only` (README, Fixing the rows that failed): the file gives the failed rows
 * back in the source's own
 * columns plus this one, the reason. Fixed, it imports as is: every preset and mapping file reads a
 * source without this column, and preset detection never sees it. (A column of that name in any
 * source is the tool's, never a product field.)
 */
export const ERROR_COLUMN = 'error';

export function withoutErrorColumn(columns: readonly string[]): string[] {
  return columns.filter((column) => column !== ERROR_COLUMN);
}

/** The record without the `error` column's value (the record itself when it has none). */
export function recordWithoutError(record: SourceRecord): SourceRecord {
  if (!(ERROR_COLUMN in record.values)) return record;
  const values = namedValues();
  for (const name of Object.keys(record.values)) {
    if (name !== ERROR_COLUMN) values[name] = record.values[name] as string;
  }
  return { ...record, values };
}
