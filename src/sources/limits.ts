/**
 * The bounds that keep a hostile or broken source from taking the process's memory or stack
 * (README, Options of `run` and `import`: `--max-record-bytes`): one record, and one value's nesting.
 */

const UNITS: Record<string, number> = { '': 1, b: 1, kib: 1024, mib: 1024 * 1024, gib: 1024 * 1024 * 1024 };

/** `8MiB`, `512KiB`, `1048576` (bytes) → bytes; null when the text is not such a size. */
export function parseByteSize(text: string): number | null {
  const match = /^(\d+)\s*(b|kib|mib|gib)?$/i.exec(text.trim());
  if (!match) return null;
  const bytes = Number(match[1]) * (UNITS[(match[2] ?? '').toLowerCase()] ?? Number.NaN);
  return Number.isSafeInteger(bytes) ? bytes : null;
}

/** How messages name a size: `8 MiB`, `512 KiB`, `1500 bytes`. */
export function formatBytes(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  }
  return `${bytes} bytes`;
}

/**
 * Feeding a parser in slices this long lets a reader check a record's size while the parser still
 * holds it (a parser fed 64 KiB at once may be holding most of it). Small enough that a record is
 * never counted more than 1/16 of the cap above its size, large enough to cost nothing.
 */
export function sliceLength(maxRecordBytes: number): number {
  return Math.max(256, Math.min(16 * 1024, Math.floor(maxRecordBytes / 16)));
}

/**
 * Splits a chunk of text into slices of about `length` characters (the chunk itself when short),
 * never between the two halves of a surrogate pair.
 */
export function* slices(text: string, length: number): Generator<string> {
  if (text.length <= length) {
    yield text;
    return;
  }
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
    yield text.slice(at, end);
    at = end;
  }
}

/** The UTF-8 size of a piece of text: the unit the cap counts in, whatever the file's encoding. */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * Counts the bytes of the record a streaming parser is building, slice by slice: from the start of
 * the slice in which the record began to the end of the current one, so never less than the
 * record's size (at most one slice more). Outside records, it counts from the parser's last sign
 * of progress: a value the reader skips (a huge string under a key it ignores) is bounded too.
 */
export class RecordMeter {
  private counted = 0;
  private sliceBytes = 0;

  constructor(readonly maxRecordBytes: number) {}

  /** A slice of text of `bytes` UTF-8 bytes is about to be parsed. */
  slice(bytes: number): void {
    this.sliceBytes = bytes;
    this.counted += bytes;
  }

  /** A record begins in the current slice. */
  recordStarted(): void {
    this.counted = this.sliceBytes;
  }

  /** The parser got somewhere outside any record (or a record ended): count afresh. */
  progress(): void {
    this.counted = 0;
  }

  get over(): boolean {
    return this.counted > this.maxRecordBytes;
  }
}
