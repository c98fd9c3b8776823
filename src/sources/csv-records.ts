import { pipeline, Readable } from 'node:stream';
import { CsvError, type Options, Parser } from 'csv-parse';
import { FIRST_PARSED_CHARS, FIRST_PIECE_CHARS } from '../defaults.js';
import type { SourceRecord } from '../interfaces.js';
import { columnNames, headerAsWritten, isBlankRow, recordFromCells } from './csv-header.js';
import { normalizeLineBreaks } from './decode.js';
import { formatBytes } from './limits.js';
import { sourceError } from './source-error.js';
import type { ReaderOptions } from './types.js';

/** A record's cells and the line it ends on. */
interface ParsedRecord {
  cells: string[];
  lines: number;
  /** The line of a quote that a quote inside a field closed after a line break (see below), else 0. */
  strayQuoteLine: number;
}

/** The part of csv-parse's internal state read here: the buffer of the field being parsed. */
interface FieldBuffer {
  buf: Buffer;
  length: number;
  prepend(value: unknown): void;
}

/**
 * csv-parse that pushes the records of each text chunk as one array, each record with the line it
 * ends on, read from the parser's counters at the moment csv-parse gives the record. csv-parse's own
 * `info: true` and `on_record` build two snapshot objects of all its counters per record (spread
 * copies): 10% of an import's CPU for one number. One push per chunk rather than per record: the
 * stream's async iterator cost a promise and a turn of its machinery for every record (issue 12).
 * `endLine` and `emptyLines`: where the last record given ended, for a parse error's position.
 *
 * With `relax_quotes`, a quoted field whose closing quote is followed by text (`"Size 10" Mattress"`)
 * is no error: csv-parse puts the opening quote back in the field (`field.prepend`, its only call)
 * and reads on as an unquoted field. When the quoted part held a line break, the quote was a stray
 * one that swallowed the lines up to the next quote: the record is marked (`strayQuoteLine`) for
 * readCsv to refuse. Watching that one call costs nothing per record.
 */
class LineCountingParser extends Parser {
  endLine = 0;
  emptyLines = 0;
  private batch: ParsedRecord[] = [];
  private strayQuoteLine = 0;

  constructor(options: Options) {
    // csv-parse passes its options on to the Transform stream. One array waits to be read at
    // most: the records held are the chunk being read and the next, parsed meanwhile (~1,700 for
    // 64 KiB chunks; ~1,200 when they came one by one).
    super({ ...options, readableHighWaterMark: 1 } as Options);
    this.watchRelaxedCloses();
  }

  /** Wraps the field buffer's `prepend` (csv-parse's state, kept on the parser as `state`). */
  private watchRelaxedCloses(): void {
    const field = (this as unknown as { state?: { field?: Partial<FieldBuffer> } }).state?.field;
    if (!field || typeof field.prepend !== 'function' || !Buffer.isBuffer(field.buf)) {
      // A csv-parse whose internals moved: no stray quote could be seen. Loud, never silent.
      throw new Error('csv-parse internals changed: state.field.prepend not found (csv-records.ts)');
    }
    const buffer = field as FieldBuffer;
    const prepend = buffer.prepend;
    buffer.prepend = (value: unknown) => {
      if (this.strayQuoteLine === 0) {
        // The field holds what stood between the quotes: as many line breaks as lines it spans.
        const breaks = countLineBreaksIn(buffer.buf.subarray(0, buffer.length));
        if (breaks > 0) this.strayQuoteLine = this.info.lines - breaks;
      }
      prepend.call(buffer, value);
    };
  }

  override push(chunk: unknown, encoding?: BufferEncoding): boolean {
    if (!Array.isArray(chunk)) {
      this.pushBatch();
      return super.push(chunk, encoding);
    }
    this.endLine = this.info.lines;
    this.emptyLines = this.info.empty_lines;
    this.batch.push({ cells: chunk, lines: this.endLine, strayQuoteLine: this.strayQuoteLine });
    this.strayQuoteLine = 0;
    return true;
  }

  override _transform(
    chunk: Buffer,
    encoding: BufferEncoding,
    callback: (error?: Error | null) => void,
  ): void {
    super._transform(chunk, encoding, (error?: Error | null) => {
      this.pushBatch();
      callback(error);
    });
  }

  override _flush(callback: (error?: Error | null) => void): void {
    super._flush((error?: Error | null) => {
      this.pushBatch();
      callback(error);
    });
  }

  private pushBatch(): void {
    if (this.batch.length === 0) return;
    const batch = this.batch;
    this.batch = [];
    super.push(batch);
  }
}

/**
 * Streams CSV records with csv-parse. `relax_quotes` reads a bare `"` inside an unquoted field as text
 * (`Redline 10" Mattress`, BigCommerce fixture); `relax_column_count` lets ragged rows through to
 * `recordFromCells`. `onColumns` receives the header before the first record: the column names,
 * and the cells as written (for a file that gives rows back in the source's own header).
 * A record over `maxRecordBytes` (mostly an unclosed quote swallowing the file) stops the read
 * before memory runs out: csv-parse reads the text as UTF-8 bytes and stops at that many.
 * `fromLine` 2 skips a `sep=` line (csv-delimiter.ts); the lines keep the file's numbers.
 */
export async function* readCsv(
  text: AsyncIterable<string>,
  delimiter: string,
  options: ReaderOptions,
  onColumns: (columns: string[], header: string[]) => void,
  fromLine = 1,
): AsyncGenerator<SourceRecord> {
  const { label, maxRecordBytes } = options;
  const csvOptions: Options = {
    delimiter,
    from_line: fromLine,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    max_record_size: maxRecordBytes,
  };
  const parser = new LineCountingParser(csvOptions);
  parser.endLine = fromLine - 1;
  // One text chunk read ahead, not Readable.from's default 16: the parser holds a chunk's records
  // (~600 for 64 KiB) anyway, and 16 chunks waiting (~1 MB) lived long enough to be promoted to
  // the old space: a 1M-row import promoted 590 MB instead of 263, in 15 full collections, not 8.
  pipeline(
    Readable.from(firstInPieces(normalizeLineBreaks(text)), { highWaterMark: 1 }),
    parser,
    () => undefined,
  );

  let columns: string[] | undefined;
  let row = 0;
  try {
    for await (const batch of parser as AsyncIterable<ParsedRecord[]>) {
      for (const { cells, lines, strayQuoteLine } of batch) {
        if (strayQuoteLine !== 0) throw sourceError(label, strayQuote(strayQuoteLine, lines));
        const line = lines - countLineBreaks(cells);
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
    }
  } catch (error) {
    if (error instanceof CsvError) {
      // The parser's counters as the last record was pushed (before any is consumed).
      const { endLine, emptyLines } = parser;
      const startLine = endLine + 1 + (Number(error.empty_lines ?? emptyLines) - emptyLines);
      throw sourceError(label, describeCsvError(error, startLine, maxRecordBytes));
    }
    throw error;
  } finally {
    parser.destroy();
  }
  if (!columns) onColumns([], []);
}

/** `text` with its first FIRST_PARSED_CHARS characters cut in pieces of FIRST_PIECE_CHARS (defaults.ts). */
export async function* firstInPieces(
  text: AsyncIterable<string>,
  first = FIRST_PARSED_CHARS,
  piece = FIRST_PIECE_CHARS,
): AsyncGenerator<string> {
  let left = first;
  for await (const chunk of text) {
    let at = 0;
    while (left > 0 && chunk.length - at > piece) {
      let end = at + Math.min(piece, left);
      // Never between the two halves of a surrogate pair: the parser encodes each piece as UTF-8.
      if (end - 1 > at && isHighSurrogate(chunk.charCodeAt(end - 1))) end--;
      yield chunk.slice(at, end);
      left -= end - at;
      at = end;
    }
    if (at < chunk.length) {
      left -= chunk.length - at;
      yield at === 0 ? chunk : chunk.slice(at);
    }
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
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

/** A quote that swallowed lines up to a quote inside a later field (see LineCountingParser). */
function strayQuote(quoteLine: number, endLine: number): string {
  return `the quote that opens a field on line ${quoteLine} is not closed: its record would run to line ${endLine}, taking in the lines between; close the quote, or double it as "" if it is part of the text`;
}

function countLineBreaksIn(bytes: Uint8Array): number {
  let breaks = 0;
  for (let i = bytes.indexOf(0x0a); i !== -1; i = bytes.indexOf(0x0a, i + 1)) breaks++;
  return breaks;
}

function countLineBreaks(cells: readonly string[]): number {
  let breaks = 0;
  for (const cell of cells) {
    for (let i = cell.indexOf('\n'); i !== -1; i = cell.indexOf('\n', i + 1)) breaks++;
  }
  return breaks;
}
