import type { SourceRecord } from '../interfaces.js';
import { isBlankColumn } from '../sources/csv-header.js';
import { quoteForMessage } from '../terminal-safe.js';
import type { MappingSpec } from './mapping-file.js';

/** Columns listed in one summary line, at most; the rest are counted. */
const SHOWN = 6;
/** Named ones are listed further: which name each took is the point of the line. */
const SHOWN_NAMED = 12;
/** A sample value is cut at this length: enough to tell a weight from a word. */
const SAMPLE_LENGTH = 24;

export interface BlankColumnsInput {
  /** The source's header as read: a blank cell is `column_<position>` (csv-header.ts). */
  columns: readonly string[];
  /** The names the preset reads the columns by (a blank cell it named by its place has a name). */
  presetColumns: readonly string[];
  sample: readonly SourceRecord[];
  mapping?: MappingSpec;
  /** The generic preset sends each column as the field of its name: `column_5` too. */
  generic: boolean;
}

/**
 * A CSV header cell left blank (a spreadsheet's, or an import template that maps columns by their
 * place) names no field, so no preset reads its column: the values in it would be dropped without
 * a word. The summary says so, one line naming each such column that holds data in the first
 * records, by its position, with a value from it; and one line for those the preset named by their
 * place. A column a mapping file reads by its position's name is the user's choice: not listed.
 */
export function blankColumnLines(input: BlankColumnsInput): string[] {
  const { columns, presetColumns, sample } = input;
  const mapped = mappingColumns(input.mapping);
  const named: string[] = [];
  const unread: string[] = [];
  columns.forEach((column, i) => {
    if (!isBlankColumn(column, i) || mapped.has(column)) return;
    const name = presetColumns[i] ?? column;
    if (name !== column) named.push(`${i + 1} ${name}`);
    else {
      const value = sampleValue(column, sample);
      if (value !== undefined) unread.push(`${i + 1} (e.g. "${value}")`);
    }
  });
  const lines: string[] = [];
  if (named.length > 0)
    lines.push(`columns with a blank header, named by their place: ${listed(named, SHOWN_NAMED)}`);
  if (unread.length > 0)
    lines.push(
      input.generic
        ? `columns with a blank header, sent as fields named column_<position>: ${listed(unread)}`
        : `columns with a blank header, not read: ${listed(unread)}`,
    );
  return lines;
}

function listed(items: readonly string[], max = SHOWN): string {
  const shown = items.slice(0, max).join(', ');
  return items.length > max ? `${shown} and ${items.length - max} more` : shown;
}

/** The first value the column holds in the sample, fit to quote; undefined when it holds none. */
function sampleValue(column: string, sample: readonly SourceRecord[]): string | undefined {
  for (const record of sample) {
    const value = (record.values[column] ?? '').trim();
    if (value === '') continue;
    // A `KEY=value` line of a file given by mistake is no catalog value: counted, not quoted.
    return value.includes('=') ? '…' : quoteForMessage(value, SAMPLE_LENGTH).replace(/"/g, "'");
  }
  return undefined;
}

function mappingColumns(mapping: MappingSpec | undefined): Set<string> {
  const names = new Set<string>();
  for (const rule of Object.values(mapping?.fields ?? {})) {
    if (!rule) continue;
    for (const name of [rule.column, ...(rule.anyColumn ?? []), ...(rule.columns ?? [])])
      if (name !== undefined) names.add(name);
  }
  return names;
}
