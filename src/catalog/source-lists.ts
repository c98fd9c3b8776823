import type { SourceRecord } from '../interfaces.js';
import { listItems, splitList } from './fields.js';

/**
 * The items of the list the source gave under `column` (a JSON array, a repeated XML element), as
 * read; undefined when its value there is text (every CSV cell).
 */
export function sourceList(record: SourceRecord, column: string): readonly string[] | undefined {
  const { lists } = record;
  // Own keys only: a column named `constructor` finds nothing of Object's.
  return lists !== undefined && Object.hasOwn(lists, column) ? lists[column] : undefined;
}

/**
 * A column read into a list field: the source's list item by item (an item holding a `,` stays
 * one), else its text split on `separator` (`,`); items trimmed, blanks dropped, as every preset
 * reads a list cell.
 */
export function listCell(record: SourceRecord, column: string, separator?: string | RegExp): string[] {
  const items = sourceList(record, column);
  return items ? listItems(items) : splitList(record.values[column] ?? '', separator);
}
