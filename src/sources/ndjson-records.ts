import { MAX_NESTING } from '../defaults.js';
import type { SourceRecord } from '../interfaces.js';
import { namedValues } from '../named-values.js';
import { badByteIn, badBytesReason } from './bad-bytes.js';
import { flattenItem, isPlainObject, nestsDeeperThan, TooDeepError } from './flatten.js';
import { formatBytes, utf8Bytes } from './limits.js';
import { parseNumbersAsText } from './number-text.js';
import { sourceError } from './source-error.js';
import type { ReaderOptions } from './types.js';

/**
 * One object per line; a line that is not a JSON object is a record with a `problem`, never skipped.
 * Numbers keep their source text, as in a JSON array (`1.50` stays `1.50`: number-text.ts).
 * A line longer than `maxRecordBytes` stops the read: it is never held whole.
 */
export async function* readNdjson(
  text: AsyncIterable<string>,
  options: ReaderOptions,
): AsyncGenerator<SourceRecord> {
  let row = 0;
  let lineNumber = 0;
  for await (const line of lines(text, options)) {
    lineNumber++;
    if (line.trim() === '') continue;
    row++;
    const bad = badByteIn(line);
    if (bad !== undefined) {
      yield { row, line: lineNumber, values: namedValues(), problem: badBytesReason(bad, options.encoding) };
      continue;
    }
    yield parseLine(line, row, lineNumber);
  }
}

export function parseLine(line: string, row: number, lineNumber: number): SourceRecord {
  if (nestsDeeperThan(line, MAX_NESTING)) return tooDeep(row, lineNumber);
  let value: unknown;
  try {
    value = parseNumbersAsText(line);
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message.split('\n')[0] : String(error);
    return {
      row,
      line: lineNumber,
      values: namedValues(),
      problem: `line ${lineNumber} is not valid JSON (${reason})`,
    };
  }
  if (!isPlainObject(value)) {
    return {
      row,
      line: lineNumber,
      values: namedValues(),
      problem: `line ${lineNumber} is not a JSON object`,
    };
  }
  try {
    return { row, line: lineNumber, ...flattenItem(value) };
  } catch (error) {
    if (error instanceof TooDeepError) return tooDeep(row, lineNumber);
    throw error;
  }
}

function tooDeep(row: number, lineNumber: number): SourceRecord {
  return {
    row,
    line: lineNumber,
    values: namedValues(),
    problem: `line ${lineNumber} is nested deeper than ${MAX_NESTING} levels`,
  };
}

/**
 * The lines of the text, without their `\n` (nor a `\r` before it). The pieces of a line are kept
 * apart until its end, so a long line costs its own length, not its length squared; past
 * `maxRecordBytes` the read stops with an error naming the line.
 */
async function* lines(text: AsyncIterable<string>, options: ReaderOptions): AsyncGenerator<string> {
  const { maxRecordBytes } = options;
  let pieces: string[] = [];
  let pendingBytes = 0;
  let lineNumber = 1;
  const tooLong = () =>
    sourceError(
      options.label,
      `line ${lineNumber} is over ${formatBytes(maxRecordBytes)} (--max-record-bytes)`,
    );
  for await (const chunk of text) {
    let start = 0;
    for (let end = chunk.indexOf('\n'); end !== -1; end = chunk.indexOf('\n', start)) {
      const piece = chunk.slice(start, end);
      // A UTF-16 unit is at most 3 UTF-8 bytes: most lines need no count.
      if (
        pendingBytes + piece.length * 3 > maxRecordBytes &&
        pendingBytes + utf8Bytes(piece) > maxRecordBytes
      ) {
        throw tooLong();
      }
      const line = pieces.length > 0 ? pieces.join('') + piece : piece;
      pieces = [];
      pendingBytes = 0;
      yield line.endsWith('\r') ? line.slice(0, -1) : line;
      lineNumber++;
      start = end + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.slice(start);
      pendingBytes += utf8Bytes(rest);
      if (pendingBytes > maxRecordBytes) throw tooLong();
      pieces.push(rest);
    }
  }
  if (pieces.length > 0) yield pieces.join('').replace(/\r$/, '');
}
