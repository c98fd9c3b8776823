import type { SourceRecord } from '../interfaces.js';
import type { FileOpener } from './byte-source.js';
import type { StoreReadOptions } from './stores/types.js';
import type { SourceNetwork } from './url-connect.js';

export type SourceFormat = 'csv' | 'json' | 'ndjson' | 'xml';

export interface OpenSourceOptions {
  /** How a file source is opened (byte-source.ts); `open(path, 'r')` when absent. */
  openFile?: FileOpener;
  /** `--format`: forces the format; otherwise detected from the content, with the extension as a hint. */
  format?: SourceFormat;
  /** `--delimiter`: forces the CSV delimiter (',', ';', '\t', '|'); otherwise detected. */
  delimiter?: string;
  /** `--encoding`: forces the encoding (any name iconv-lite knows); otherwise detected. */
  encoding?: string;
  /** Read for the source `-`; defaults to `process.stdin`. */
  stdin?: NodeJS.ReadableStream;
  /** URL sources: the resolver and connector; the system's when absent (tests inject both). */
  network?: SourceNetwork;
  /** URL sources: `--source-timeout`, ms: less than 1 KiB in any window this long is a stall. */
  sourceTimeoutMs?: number;
  /** URL sources: how long resolving and connecting may take, ms (10 s). */
  connectTimeoutMs?: number;
  /** URL sources: `--allow-private-source`. */
  allowPrivateSource?: boolean;
  /** URL sources: a job file named it, so a loopback or private address takes `--allow-private-source`. */
  sourceNamedByJob?: boolean;
  /** `--max-record-bytes`: one record (CSV record, NDJSON line, JSON element, XML item), after decompression. */
  maxRecordBytes?: number;
  /** Store sources (`shopify://`, `woocommerce://`): credentials' choice, API version, seams. */
  store?: Pick<
    StoreReadOptions,
    | 'env'
    | 'credentials'
    | 'apiVersion'
    | 'allowInsecure'
    | 'sleep'
    | 'now'
    | 'onProgress'
    | 'onWait'
    | 'maxAnswerBytes'
    | 'whilePreparing'
  >;
}

/** What every record reader is given besides the text. */
export interface ReaderOptions {
  /** How messages name the source. */
  label: string;
  maxRecordBytes: number;
  /** The encoding the text was decoded from, for the reason of a row with bad bytes. */
  encoding: string;
}

/** How many rows a source holds, known or guessed before it is read (to size Redis for the run). */
export interface RowEstimate {
  rows: number;
  /** How the figure was found, for the user: "counted", "estimated from the file's size…". */
  how: string;
  /** About the bytes of one record in the source (a line; JSON and XML: the first record). */
  bytesPerRow?: number;
  /**
   * Set when the figure counts more than the rows it bounds, and is all that is known before the
   * read (a Shopify bulk operation's objects: its products, variants and images): what the plan
   * line says it counts, e.g. `the bulk operation's 1,992 objects; rows are fewer`.
   */
  overcounts?: string;
}

export interface OpenedSource {
  format: SourceFormat;
  encoding: string;
  /** CSV only. */
  delimiter?: string;
  /** CSV: the header in order (trimmed). JSON, NDJSON, XML: the keys of the first record. */
  columns: string[];
  /** JSON, NDJSON, XML: each record names its own fields, and a later one may bring more than `columns`. */
  openColumns: boolean;
  /**
   * CSV only: the header cells as the source writes them (not trimmed, BOM and formula guard
   * removed, Excel text `="…"` read as its text), at the positions of `columns`; what
   * `report --failed-only` writes back.
   */
  header?: string[];
  /** One human line per thing detected or forced, e.g. "delimiter ';' (detected)". */
  detections: string[];
  /** The rows the source holds, about, when its size is known (a file, a feed with a length); else null. */
  rowEstimate: RowEstimate | null;
  /**
   * A file, standard input or feed: what tells its content from another read's, from its first
   * 64 KiB (fingerprint.ts). None for a store, read page by page as it is queued.
   */
  fingerprint?: string;
  /** A store read through its API: the preset of its platform, which reads the rows it gives. */
  preset?: 'shopify' | 'woocommerce';
  /** Single pass. Errors met while reading are thrown as `SourceError`. */
  records: AsyncIterable<SourceRecord>;
  /** Releases the file or socket when the caller stops before the end; safe to call twice. */
  close(): Promise<void>;
}
