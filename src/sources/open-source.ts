import { relay } from '../async-relay.js';
import { DEFAULT_MAX_RECORD_BYTES, DEFAULT_SOURCE_TIMEOUT_MS } from '../defaults.js';
import type { SourceRecord } from '../interfaces.js';
import { namedValues } from '../named-values.js';
import { thousands } from '../thousands.js';
import { badByteIn, badByteInRecord, badBytesReason, withoutMarks } from './bad-bytes.js';
import { type ByteSource, openFile, openStream } from './byte-source.js';
import { type CsvDelimiter, chooseDelimiter } from './csv-delimiter.js';
import { readCsv } from './csv-records.js';
import { type DecodeState, decodeAll, decodeChunks, isKnownEncoding } from './decode.js';
import { gunzipIfCompressed } from './decompress.js';
import { DELIMITERS, describeDelimiter } from './detect-delimiter.js';
import { binaryReason, detectEncoding, hasNulByte } from './detect-encoding.js';
import { detectFormat, extensionOf } from './detect-format.js';
import { contentFingerprint } from './fingerprint.js';
import { readNdjson } from './ndjson-records.js';
import { refuseOneColumnHeader } from './one-column-header.js';
import { type Sniffed, sniff } from './sniff.js';
import { SourceError, sourceError } from './source-error.js';
import { isStoreSource, storeAddressMisfit } from './stores/store-url.js';
import type { OpenedSource, OpenSourceOptions, ReaderOptions, RowEstimate, SourceFormat } from './types.js';
import { openUrl } from './url-source.js';

const FORMATS: readonly SourceFormat[] = ['csv', 'json', 'ndjson', 'xml'];

/**
 * Opens a source (file path, `-` for standard input, an http(s) URL, or a store read through its
 * API: see src/sources/stores) and reads it as records.
 * A gzip-compressed source is inflated as it is read. Only the first 64 KiB are held whole, to
 * detect encoding, format and delimiter; the rest streams, one record at a time, none longer than
 * `maxRecordBytes`. The first record is read before this resolves, so a source that cannot be read
 * at all fails here.
 */
export async function openSource(source: string, options: OpenSourceOptions = {}): Promise<OpenedSource> {
  checkOptions(options);
  if (isStoreSource(source)) return openStoreSource(source, options);
  const misfit = storeAddressMisfit(source);
  if (misfit !== null) throw new SourceError(misfit);
  let bytes = await openBytes(source, options);
  try {
    const inflated = await gunzipIfCompressed(bytes);
    bytes = inflated.source;
    return await readSource(bytes, options, inflated.gzip);
  } catch (error) {
    await bytes.close();
    throw error;
  }
}

/** A store's reader is loaded when a store is read: a file import does not hold it. */
async function openStoreSource(source: string, options: OpenSourceOptions): Promise<OpenedSource> {
  const { openStore } = await import('./stores/open-store.js');
  return openStore(source, {
    env: options.store?.env ?? {},
    allowInsecure: options.store?.allowInsecure === true,
    allowPrivateSource: options.allowPrivateSource === true,
    timeoutMs: options.sourceTimeoutMs ?? DEFAULT_SOURCE_TIMEOUT_MS,
    maxRecordBytes: options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES,
    ...(options.store?.credentials === undefined ? {} : { credentials: options.store.credentials }),
    ...(options.store?.apiVersion === undefined ? {} : { apiVersion: options.store.apiVersion }),
    ...(options.store?.sleep ? { sleep: options.store.sleep } : {}),
    ...(options.store?.now ? { now: options.store.now } : {}),
    ...(options.store?.onProgress ? { onProgress: options.store.onProgress } : {}),
    ...(options.store?.onWait ? { onWait: options.store.onWait } : {}),
    ...(options.store?.whilePreparing ? { whilePreparing: options.store.whilePreparing } : {}),
    ...(options.store?.maxAnswerBytes ? { maxAnswerBytes: options.store.maxAnswerBytes } : {}),
    ...(options.network ? { network: options.network } : {}),
    ...(options.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: options.connectTimeoutMs }),
  });
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
  const max = options.maxRecordBytes;
  if (max !== undefined && (!Number.isSafeInteger(max) || max < 1)) {
    throw new SourceError(`the record cap must be a positive number of bytes, not ${max}`);
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
    return openUrl(source, {
      ...options.network,
      ...(options.sourceTimeoutMs === undefined ? {} : { sourceTimeoutMs: options.sourceTimeoutMs }),
      ...(options.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: options.connectTimeoutMs }),
      allowPrivateSource: options.allowPrivateSource === true,
      namedByJob: options.sourceNamedByJob === true,
    });
  }
  return openFile(source, extensionOf(source), options.openFile);
}

async function readSource(
  bytes: ByteSource,
  options: OpenSourceOptions,
  gzip: boolean,
): Promise<OpenedSource> {
  const sniffed = await sniff(bytes.chunks);
  const detections: string[] = gzip ? ['compression gzip (detected)'] : [];
  const encoding = chooseEncoding(sniffed, bytes.label, options.encoding, detections);
  const sample = decodeAll(sniffed.prefix, encoding);
  if (sample.trim() === '') {
    throw sourceError(bytes.label, sniffed.complete ? 'source is empty' : 'the first 64 KiB are blank');
  }
  const format = chooseFormat(sample, bytes.extension, options.format, detections);
  const csv =
    format === 'csv'
      ? chooseDelimiter(sample, sniffed.complete, bytes.label, bytes.extension, options.delimiter, detections)
      : undefined;
  const delimiter = csv?.delimiter;

  const decoded: DecodeState = { marked: 0 };
  const text = decodeChunks(sniffed.chunks, encoding, decoded);
  let csvColumns: string[] = [];
  let csvHeader: string[] = [];
  const readerOptions: ReaderOptions = {
    label: bytes.label,
    maxRecordBytes: options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES,
    encoding,
  };
  const reader = checkBytes(
    readerFor(format, text, readerOptions, csv, (columns, header) => {
      csvColumns = columns;
      csvHeader = header;
    }),
    decoded,
    encoding,
  );
  const first = await reader.next();
  const badHeader = csvColumns.map(badByteIn).find((byte) => byte !== undefined);
  if (badHeader !== undefined)
    throw sourceError(bytes.label, `the header holds ${badBytesReason(badHeader, encoding)}`);
  if (csv) refuseOneColumnHeader(bytes.label, csvHeader, csv);
  const columns = format === 'csv' ? csvColumns : first.done ? [] : Object.keys(first.value.values);
  const firstRecord = first.done ? null : first.value;
  const rowEstimate = estimateRows(sniffed, bytes.size, format, firstRecord, csv?.fromLine);

  // The first record, read ahead, then the rest; the source is closed however the read ends.
  const records = relay(reader, { first: first.done ? [] : [first.value], onEnd: () => bytes.close() });
  return {
    format,
    encoding,
    ...(delimiter === undefined ? {} : { delimiter }),
    columns,
    openColumns: format !== 'csv',
    ...(format === 'csv' ? { header: csvHeader } : {}),
    detections,
    rowEstimate,
    fingerprint: contentFingerprint(sniffed, bytes.wireLength),
    records,
    async close() {
      await bytes.close();
    },
  };
}

/**
 * About how many records the source holds, before it is read: the lines of a CSV or NDJSON source
 * (counted when the first 64 KiB hold it all, else its size at the first 64 KiB's bytes per line);
 * for JSON and XML, its size at the first record's length. Null when the size is unknown (standard
 * input, a feed without a length). A CSV's header is on `fromLine` (2 past a `sep=` line).
 */
export function estimateRows(
  sniffed: Pick<Sniffed, 'prefix' | 'complete'>,
  size: number | undefined,
  format: SourceFormat,
  first: SourceRecord | null,
  fromLine = 1,
): RowEstimate | null {
  const header = format === 'csv' ? fromLine : 0;
  const lineBased = format === 'csv' || format === 'ndjson';
  if (lineBased) {
    // The typed array's indexOf, a V8 builtin: a byte loop ran interpreted at every start (~12 ms
    // for 64 KiB), and Buffer's own indexOf crosses into C++ for every line (issue 12).
    const lineEnd = (from: number) => Uint8Array.prototype.indexOf.call(sniffed.prefix, 0x0a, from);
    let lines = 0;
    for (let at = lineEnd(0); at !== -1; at = lineEnd(at + 1)) lines++;
    if (sniffed.prefix.length > 0 && sniffed.prefix[sniffed.prefix.length - 1] !== 0x0a) lines++;
    const perLine = lines > 0 ? sniffed.prefix.length / lines : 0;
    const bytesPerRow = Math.round(perLine);
    if (sniffed.complete) return { rows: Math.max(0, lines - header), how: 'counted', bytesPerRow };
    if (size === undefined || lines < 2) return null;
    return {
      rows: Math.max(1, Math.round(size / perLine) - header),
      bytesPerRow,
      how: `estimated from the source's size: ${thousands(size)} bytes at ${Math.round(perLine)} a line`,
    };
  }
  if (size === undefined || !first) return null;
  const perRecord = Math.max(16, Buffer.byteLength(JSON.stringify(first.values)));
  return {
    rows: Math.max(1, Math.round(size / perRecord)),
    bytesPerRow: perRecord,
    how: `estimated from the source's size: ${thousands(size)} bytes at ${perRecord} for the first record`,
  };
}

function readerFor(
  format: SourceFormat,
  text: AsyncIterable<string>,
  options: ReaderOptions,
  csv: CsvDelimiter | undefined,
  onColumns: (columns: string[], header: string[]) => void,
): AsyncGenerator<SourceRecord> {
  switch (format) {
    case 'csv':
      return readCsv(text, csv?.delimiter ?? ',', options, onColumns, csv?.fromLine);
    case 'json':
      return readLater(import('./json-records.js').then((m) => m.readJson(text, options)));
    case 'ndjson':
      return readNdjson(text, options);
    case 'xml':
      return readLater(import('./xml-records.js').then((m) => m.readXml(text, options)));
  }
}

/**
 * The JSON and XML readers are loaded when a source of theirs is read: stream-json and saxes are
 * ~1.3 MB of heap that a CSV import would hold for nothing, and each MB held for good lets V8 fill
 * about three more with garbage before a full collection (BENCHMARKS.md, issue 12, goal 5).
 */
async function* readLater(reader: Promise<AsyncGenerator<SourceRecord>>): AsyncGenerator<SourceRecord> {
  yield* await reader;
}

/**
 * One check for every format: a record holding bytes that are not valid in the file's encoding
 * (marked by the decoder) is invalid, with the position of the first of them; its values keep a
 * U+FFFD there, for the report only (an invalid row is never sent). A parse error in such a file
 * says that the bytes may be the cause.
 */
function checkBytes(
  records: AsyncIterator<SourceRecord>,
  decoded: DecodeState,
  encoding: string,
): AsyncIterableIterator<SourceRecord> {
  return relay(records, {
    each(record) {
      if (decoded.marked === 0) return record;
      const byte = badByteInRecord(record.values);
      if (byte === undefined) return record;
      const values = namedValues();
      for (const [key, value] of Object.entries(record.values)) {
        values[withoutMarks(key, '\uFFFD')] = withoutMarks(value, '\uFFFD');
      }
      const unread: SourceRecord = {
        row: record.row,
        line: record.line,
        values,
        problem: badBytesReason(byte, encoding),
      };
      // A record already out of shape (more cells than the header) may hold a cell in another's column.
      if (record.problem === undefined) unread.cellsInPlace = true;
      return unread;
    },
    onError(error) {
      if (!(error instanceof SourceError) || decoded.first === undefined) return error;
      if (error.message.includes('--max-record-bytes')) return error;
      return new SourceError(
        `${withoutMarks(error.message)} (the source holds ${badBytesReason(decoded.first, encoding)})`,
      );
    },
  });
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
