import { unguardCell } from '../csv-guard.js';
import type { SourceRecord } from '../interfaces.js';
import { namedValues } from '../named-values.js';

/**
 * A cell as the seller means it. A cell written `'=…` (the spreadsheet's "text" marker before a
 * value that starts like a formula, as this tool's own CSV files write such values, csv-guard.ts)
 * is read without the `'`, so a file this tool wrote (`report --failed-only`, `products export`)
 * imports back with the values it holds. A cell that is Excel text, `="00123"` (what ERP and Excel
 * exports write to keep leading zeros), is read as its text, `00123`: read as written, a SKU so
 * never matched the seller's own. Any other cell is read as it is (`'Tis`, `-12.5`, `=A1`). One
 * look at the first character per cell: this runs for every cell of a file.
 */
export function sourceCell(cell: string): string {
  if (cell.charCodeAt(0) === EQUALS) return excelText(cell) ?? cell;
  return unguardCell(cell);
}

const EQUALS = 0x3d;
/** The whole cell one Excel string literal: `="…"`, a quote inside it doubled. */
const EXCEL_TEXT = /^="((?:[^"]|"")*)"$/s;

/**
 * The text of a cell that is one Excel string literal (`="say ""hi"""` is `say "hi"`), else
 * undefined: any other formula (`=A1`, `="a"&"b"`) is no text the file gives, and is read as it is.
 */
export function excelText(cell: string): string | undefined {
  const inner = EXCEL_TEXT.exec(cell)?.[1];
  if (inner === undefined) return undefined;
  return inner.includes('"') ? inner.replaceAll('""', '"') : inner;
}

/**
 * The header cells as written (a leading BOM and a formula guard removed, Excel text read as its
 * text, not trimmed): what a file that gives the source's rows back (`report --failed-only`) writes
 * as its header.
 */
export function headerAsWritten(cells: readonly string[]): string[] {
  return cells.map((cell) => sourceCell(cell.replace(/^\uFEFF/, '')));
}

/**
 * Column names from a header row: trimmed, a leading BOM removed, a blank name given its position
 * (`column_5`) so spreadsheet exports with empty header cells still read. Two columns with the same
 * name cannot both be kept: that is an error naming them. Returns the names or the error's detail.
 */
export function columnNames(cells: readonly string[]): { names: string[] } | { error: string } {
  const names = headerAsWritten(cells).map((cell, i) => cell.trim() || blankColumnName(i));
  const seen = new Map<string, number>();
  const duplicates: string[] = [];
  names.forEach((name, i) => {
    const first = seen.get(name);
    if (first === undefined) seen.set(name, i);
    else duplicates.push(`'${name}' (columns ${first + 1} and ${i + 1})`);
  });
  if (duplicates.length > 0) return { error: `the header repeats column names: ${duplicates.join(', ')}` };
  return { names };
}

/** The name a blank header cell at `index` (0-based) is read by: `column_5` for the fifth. */
export function blankColumnName(index: number): string {
  return `column_${index + 1}`;
}

/** Whether the column at `index` of a CSV header is one whose header cell was blank. */
export function isBlankColumn(name: string, index: number): boolean {
  return name === blankColumnName(index);
}

/**
 * One data row as a record. Fewer cells than the header: the missing columns are absent. More cells:
 * the record says so in `problem` (it is never dropped), unless the extra cells are all empty, which
 * is only a trailing delimiter and loses nothing.
 */
export function recordFromCells(
  columns: readonly string[],
  cells: readonly string[],
  row: number,
  line: number,
): SourceRecord {
  const values = namedValues();
  const width = Math.min(columns.length, cells.length);
  // Made at the first cell of Excel text: a record without one costs a comparison per cell.
  let excelText: SourceRecord['excelText'];
  for (let i = 0; i < width; i++) {
    const cell = cells[i]!;
    const text = sourceCell(cell);
    values[columns[i]!] = text;
    if (text === cell || cell.charCodeAt(0) !== EQUALS) continue;
    excelText ??= [];
    excelText.push({ text, cell });
  }
  const record: SourceRecord = { row, line, values };
  if (excelText) record.excelText = excelText;
  if (cells.length > columns.length && cells.slice(columns.length).some((cell) => cell !== '')) {
    record.problem = `row ${row} has ${cells.length} cells, the header has ${columns.length}`;
  }
  return record;
}

/** A line csv-parse did not skip but that holds nothing: one cell of spaces. */
export function isBlankRow(cells: readonly string[]): boolean {
  return cells.length === 1 && cells[0]!.trim() === '';
}
