import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sourceCell } from '../../../src/sources/csv-header.js';
import { readCsvText } from './helpers.js';

/** Characters that break naive CSV readers, plus multi-byte ones (2, 3 and 4 bytes in UTF-8). */
const tricky = fc.constantFrom(
  ',',
  ';',
  '\t',
  '|',
  '"',
  '""',
  '\n',
  ' ',
  "'",
  'é',
  '€',
  '–',
  'ß',
  '日本',
  '🍓',
  '❤️',
);
const cell = fc
  .array(fc.oneof(tricky, fc.string({ unit: 'grapheme-ascii', maxLength: 4 })), { maxLength: 6 })
  .map((parts) => parts.join(''));
// A guarded name (`'-x`) reads as its value (`-x`), Excel text (`="x"`) as its text: kept out
// here, so that names stay distinct.
const columnName = cell.filter((name) => name.trim() === name && name !== '' && sourceCell(name) === name);

/** Two columns or more: a one-column file holds no delimiter to find. */
const catalog = fc.uniqueArray(columnName, { minLength: 2, maxLength: 6 }).chain((columns) =>
  fc.record({
    columns: fc.constant(columns),
    rows: fc.array(fc.array(cell, { minLength: columns.length, maxLength: columns.length }), {
      maxLength: 8,
    }),
  }),
);

/**
 * Cell for cell, a formula guard taken off (`'=x` reads `=x`) and a cell of Excel text read as its
 * text (`="x"` reads `x`): csv-header.ts, sourceCell.
 */
const expected = (columns: string[], rows: string[][]) =>
  rows.map((cells, i) => ({
    row: i + 1,
    values: Object.fromEntries(columns.map((name, c) => [name, sourceCell(cells[c] ?? '')])),
  }));

describe.each([',', ';', '\t', '|'])('a random catalog written by csv-stringify with %j', (delimiter) => {
  it('reads back cell for cell when the delimiter is given', async () => {
    await fc.assert(
      fc.asyncProperty(catalog, async ({ columns, rows }) => {
        const csv = stringify([columns, ...rows], { delimiter });
        const { opened, records } = await readCsvText(csv, { delimiter, format: 'csv' });
        expect(opened.columns).toEqual(columns);
        expect(records.map(({ row, values }) => ({ row, values }))).toEqual(expected(columns, rows));
        expect(records.every((record) => record.problem === undefined)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('detects the delimiter and reads back cell for cell when every cell is quoted', async () => {
    await fc.assert(
      fc.asyncProperty(catalog, async ({ columns, rows }) => {
        const csv = stringify([columns, ...rows], { delimiter, quoted: true, quoted_empty: true });
        const { opened, records } = await readCsvText(csv);
        expect(opened.delimiter).toBe(delimiter);
        expect(records.map(({ row, values }) => ({ row, values }))).toEqual(expected(columns, rows));
      }),
      { numRuns: 60 },
    );
  });
});
