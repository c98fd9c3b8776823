import { pipeline, Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import type { SourceRecord } from '../interfaces.js';
import { columnNames, headerAsWritten, isBlankRow, recordFromCells } from './csv-header.js';
import { normalizeLineBreaks } from './decode.js';
import { formatBytes } from './limits.js';
import { sourceError } from './source-error.js';
import type { ReaderOptions } from './types.js';

interface ParsedRecord {
  record: string[];
  info: { lines: number; empty_lines: number };
}

/**
 * Streams CSV records with csv-parse. `relax_quotes` reads a bare `"` inside an unquoted field as text
 * (`Redline 10" Mattress`, BigCommerce fixture); `relax_column_count` lets ragged rows through to
 * `recordFromCells`. `onColumns` receives the header before the first record: the column names,
 * and the cells as written (for a file that gives rows back in the source's own header).
 * A record over `maxRecordBytes` (mostly an unclosed quote swallowing the file) stops the read
 * before memory runs out: csv-parse reads the text as UTF-8 bytes and stops at that many.
 */
export async function* readCsv(
  text: AsyncIterable<string>,
  delimiter: string,
  options: ReaderOptions,
  onColumns: (columns: string[], header: string[]) => void,
): AsyncGenerator<SourceRecord> {
  const { label, maxRecordBytes } = options;
  let endLine = 0;
  let emptyLines = 0;
  const parser = parse({
    delimiter,
    info: true,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    max_record_size: maxRecordBytes,
    // Runs as each record is parsed, before any is consumed: the position a parse error starts from.
    on_record: (record, context) => {
      endLine = context.lines;
      emptyLines = context.empty_lines;
      return record;
    },
  });
  pipeline(Readable.from(normalizeLineBreaks(text)), parser, () => undefined);

  let columns: string[] | undefined;
  let row = 0;
  try {
    for await (const { record: cells, info } of parser as AsyncIterable<ParsedRecord>) {
      const line = info.lines - countLineBreaks(cells);
      if (isBlankRow(cells)) continue;
      if (!columns) {
        const header = columnNames(cells);
        if ('error' in header) throw sourceError(label, header.error);
        columns = header.names;
        onColumns(columns, headerAsWritten(cells));
        continue;
      }
      row++;
      yield recordFromCells(columns, cells, row, line);
    }
  } catch (error) {
    if (error instanceof CsvError) {
      const startLine = endLine + 1 + (Number(error.empty_lines ?? emptyLines) - emptyLines);
      throw sourceError(label, describeCsvError(error, startLine, maxRecordBytes));
    }
    throw error;
  } finally {
    parser.destroy();
  }
  if (!columns) onColumns([], []);
}

function describeCsvError(error: CsvError, startLine: number, maxRecordBytes: number): string {
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return `unclosed quote in the record that starts on line ${startLine}`;
    case 'CSV_MAX_RECORD_SIZE':
      return `the record that starts on line ${startLine} is over ${formatBytes(maxRecordBytes)} (--max-record-bytes): probably an unclosed quote`;
    default:
      return `cannot read the CSV record that starts on line ${startLine}: ${error.message}`;
  }
}

function countLineBreaks(cells: readonly string[]): number {
  let breaks = 0;
  for (const cell of cells) {
    for (let i = cell.indexOf('\n'); i !== -1; i = cell.indexOf('\n', i + 1)) breaks++;
  }
  return breaks;
}
