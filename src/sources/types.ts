import type { SourceRecord } from '../interfaces.js';

export type SourceFormat = 'csv' | 'json' | 'ndjson' | 'xml';

export interface OpenSourceOptions {
  /** `--format`: forces the format; otherwise detected from the content, with the extension as a hint. */
  format?: SourceFormat;
  /** `--delimiter`: forces the CSV delimiter (',', ';', '\t', '|'); otherwise detected. */
  delimiter?: string;
  /** `--encoding`: forces the encoding (any name iconv-lite knows); otherwise detected. */
  encoding?: string;
  /** Read for the source `-`; defaults to `process.stdin`. */
  stdin?: NodeJS.ReadableStream;
  /** Used for http(s) sources; defaults to `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch;
  /** URL sources: how long to wait for the answer, and for each next piece of the body. */
  timeoutMs?: number;
}

/** How many rows a source holds, known or guessed before it is read (to size Redis for the run). */
export interface RowEstimate {
  rows: number;
  /** How the figure was found, for the user: "counted", "estimated from the file's size…". */
  how: string;
}

export interface OpenedSource {
  format: SourceFormat;
  encoding: string;
  /** CSV only. */
  delimiter?: string;
  /** CSV: the header in order (trimmed). JSON, NDJSON, XML: the keys of the first record. */
  columns: string[];
  /** One human line per thing detected or forced, e.g. "delimiter ';' (detected)". */
  detections: string[];
  /** The rows the source holds, about, when its size is known (a file, a feed with a length); else null. */
  rowEstimate: RowEstimate | null;
  /** Single pass. Errors met while reading are thrown as `SourceError`. */
  records: AsyncIterable<SourceRecord>;
  /** Releases the file or socket when the caller stops before the end; safe to call twice. */
  close(): Promise<void>;
}
