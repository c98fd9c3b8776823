import type { SourceRecord } from '../interfaces.js';
import { type ByteSource, openFile, openStream } from './byte-source.js';
import { readCsv } from './csv-records.js';
import { decodeAll, decodeChunks, isKnownEncoding } from './decode.js';
import { DELIMITERS, describeDelimiter, detectDelimiter } from './detect-delimiter.js';
import { binaryReason, detectEncoding, hasNulByte } from './detect-encoding.js';
import { detectFormat, extensionOf } from './detect-format.js';
import { readJson } from './json-records.js';
import { readNdjson } from './ndjson-records.js';
import { type Sniffed, sniff } from './sniff.js';
import { SourceError, sourceError } from './source-error.js';
import type { OpenedSource, OpenSourceOptions, RowEstimate, SourceFormat } from './types.js';
import { DEFAULT_TIMEOUT_MS, openUrl } from './url-source.js';
import { readXml } from './xml-records.js';

const FORMATS: readonly SourceFormat[] = ['csv', 'json', 'ndjson', 'xml'];

/**
 * Opens a source (file path, `-` for standard input, or an http(s) URL) and reads it as records.
 * Only the first 64 KiB are held whole, to detect encoding, format and delimiter; the rest streams.
 * The first record is read before this resolves, so a source that cannot be read at all fails here.
 */
export async function openSource(source: string, options: OpenSourceOptions = {}): Promise<OpenedSource> {
  checkOptions(options);
  const bytes = await openBytes(source, options);
  try {
    return await readSource(bytes, options);
  } catch (error) {
    await bytes.close();
    throw error;
  }
}

function checkOptions(options: OpenSourceOptions): void {
  if (options.format !== undefined && !FORMATS.includes(options.format)) {
    throw new SourceError(`unknown format '${options.format}': use one of ${FORMATS.join(', ')}`);
  }
  if (options.delimiter !== undefined && options.delimiter.length !== 1) {
    throw new SourceError(
      `the delimiter must be one character, such as ${DELIMITERS.map(describeDelimiter).join(', ')}`,
    );
  }
  if (options.encoding !== undefined && !isKnownEncoding(options.encoding)) {
    throw new SourceError(
      `unknown encoding '${options.encoding}': try utf-8, utf-16le, windows-1252 or latin1`,
    );
  }
}

function openBytes(source: string, options: OpenSourceOptions): Promise<ByteSource> {
  if (source === '-') return Promise.resolve(openStream(options.stdin ?? process.stdin, 'standard input'));
  if (/^https?:\/\//i.test(source)) {
    return openUrl(source, options.fetch ?? globalThis.fetch, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  }
  return openFile(source, extensionOf(source));
}

async function readSource(bytes: ByteSource, options: OpenSourceOptions): Promise<OpenedSource> {
  const sniffed = await sniff(bytes.chunks);
  const detections: string[] = [];
  const encoding = chooseEncoding(sniffed, bytes.label, options.encoding, detections);
  const sample = decodeAll(sniffed.prefix, encoding);
  if (sample.trim() === '') {
    throw sourceError(bytes.label, sniffed.complete ? 'source is empty' : 'the first 64 KiB are blank');
  }
  const format = chooseFormat(sample, bytes.extension, options.format, detections);
  const delimiter =
    format === 'csv' ? chooseDelimiter(sample, sniffed.complete, bytes, options, detections) : undefined;

  const text = decodeChunks(sniffed.chunks, encoding);
  let csvColumns: string[] = [];
  const reader = readerFor(format, text, bytes.label, delimiter, (columns) => {
    csvColumns = columns;
  });
  const first = await reader.next();
  const columns = format === 'csv' ? csvColumns : first.done ? [] : Object.keys(first.value.values);
  const rowEstimate = estimateRows(sniffed, bytes.size, format, first.done ? null : first.value);

  async function* records(): AsyncGenerator<SourceRecord> {
    try {
      if (first.done) return;
      yield first.value;
      yield* reader;
    } finally {
      await bytes.close();
    }
  }
  return {
    format,
    encoding,
    ...(delimiter === undefined ? {} : { delimiter }),
    columns,
    detections,
    rowEstimate,
    records: records(),
    async close() {
      await bytes.close();
    },
  };
}

/**
 * About how many records the source holds, before it is read: the lines of a CSV or NDJSON source
 * (counted when the first 64 KiB hold it all, else its size at the first 64 KiB's bytes per line);
 * for JSON and XML, its size at the first record's length. Null when the size is unknown (standard
 * input, a feed without a length).
 */
export function estimateRows(
  sniffed: Pick<Sniffed, 'prefix' | 'complete'>,
  size: number | undefined,
  format: SourceFormat,
  first: SourceRecord | null,
): RowEstimate | null {
  const header = format === 'csv' ? 1 : 0;
  const lineBased = format === 'csv' || format === 'ndjson';
  if (lineBased) {
    let lines = 0;
    for (const byte of sniffed.prefix) if (byte === 0x0a) lines++;
    if (sniffed.prefix.length > 0 && sniffed.prefix[sniffed.prefix.length - 1] !== 0x0a) lines++;
    if (sniffed.complete) return { rows: Math.max(0, lines - header), how: 'counted' };
    if (size === undefined || lines < 2) return null;
    const perLine = sniffed.prefix.length / lines;
    return {
      rows: Math.max(1, Math.round(size / perLine) - header),
      how: `estimated from the source's size: ${size.toLocaleString('en-US')} bytes at ${Math.round(perLine)} a line`,
    };
  }
  if (size === undefined || !first) return null;
  const perRecord = Math.max(16, Buffer.byteLength(JSON.stringify(first.values)));
  return {
    rows: Math.max(1, Math.round(size / perRecord)),
    how: `estimated from the source's size: ${size.toLocaleString('en-US')} bytes at ${perRecord} for the first record`,
  };
}

function readerFor(
  format: SourceFormat,
  text: AsyncIterable<string>,
  label: string,
  delimiter: string | undefined,
  onColumns: (columns: string[]) => void,
): AsyncGenerator<SourceRecord> {
  switch (format) {
    case 'csv':
      return readCsv(text, delimiter ?? ',', label, onColumns);
    case 'json':
      return readJson(text, label);
    case 'ndjson':
      return readNdjson(text);
    case 'xml':
      return readXml(text, label);
  }
}

function chooseEncoding(
  sniffed: Sniffed,
  label: string,
  forced: string | undefined,
  detections: string[],
): string {
  if (sniffed.prefix.length === 0) throw sourceError(label, 'source is empty');
  const binary = binaryReason(sniffed.prefix);
  if (binary) throw sourceError(label, binary);
  if (forced) {
    detections.push(`encoding ${forced} (forced)`);
    return forced;
  }
  const guess = detectEncoding(sniffed.prefix, sniffed.complete);
  if (!guess.encoding.startsWith('utf-16') && hasNulByte(sniffed.prefix)) {
    throw sourceError(label, 'holds NUL bytes: it looks like a binary file, not text');
  }
  detections.push(`encoding ${guess.encoding} (detected: ${guess.reason})`);
  return guess.encoding;
}

function chooseFormat(
  sample: string,
  extension: string,
  forced: SourceFormat | undefined,
  detections: string[],
): SourceFormat {
  if (forced) {
    detections.push(`format ${forced} (forced)`);
    return forced;
  }
  const guess = detectFormat(sample, extension);
  detections.push(`format ${guess.format} (${guess.reason})`);
  return guess.format;
}

function chooseDelimiter(
  sample: string,
  complete: boolean,
  bytes: ByteSource,
  options: OpenSourceOptions,
  detections: string[],
): string {
  if (options.delimiter) {
    detections.push(`delimiter ${describeDelimiter(options.delimiter)} (forced)`);
    return options.delimiter;
  }
  if (bytes.extension === 'tsv') {
    detections.push(`delimiter tab (from the .tsv extension)`);
    return '\t';
  }
  const delimiter = detectDelimiter(sample, complete);
  detections.push(`delimiter ${describeDelimiter(delimiter)} (detected)`);
  return delimiter;
}
