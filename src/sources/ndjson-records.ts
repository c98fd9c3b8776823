import type { SourceRecord } from '../interfaces.js';
import { flattenItem, isPlainObject } from './flatten.js';

/** One object per line; a line that is not a JSON object is a record with a `problem`, never skipped. */
export async function* readNdjson(text: AsyncIterable<string>): AsyncGenerator<SourceRecord> {
  let row = 0;
  let lineNumber = 0;
  for await (const line of lines(text)) {
    lineNumber++;
    if (line.trim() === '') continue;
    row++;
    yield parseLine(line, row, lineNumber);
  }
}

export function parseLine(line: string, row: number, lineNumber: number): SourceRecord {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message.split('\n')[0] : String(error);
    return { row, line: lineNumber, values: {}, problem: `line ${lineNumber} is not valid JSON (${reason})` };
  }
  if (!isPlainObject(value)) {
    return { row, line: lineNumber, values: {}, problem: `line ${lineNumber} is not a JSON object` };
  }
  return { row, line: lineNumber, values: flattenItem(value) };
}

async function* lines(text: AsyncIterable<string>): AsyncGenerator<string> {
  let pending = '';
  for await (const chunk of text) {
    const buffer = pending + chunk;
    let start = 0;
    for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n', start)) {
      yield buffer.slice(start, end).replace(/\r$/, '');
      start = end + 1;
    }
    pending = buffer.slice(start);
  }
  if (pending !== '') yield pending.replace(/\r$/, '');
}
