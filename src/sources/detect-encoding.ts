/** What the first bytes of a source say about how to decode it. Pure: table-tested. */
export interface EncodingGuess {
  encoding: string;
  /** Why, for the detections line: "byte order mark", "not valid UTF-8", … */
  reason: string;
}

const MAGIC: ReadonlyArray<{ bytes: number[]; what: string }> = [
  { bytes: [0x25, 0x50, 0x44, 0x46], what: 'looks like a PDF file, not a catalog export' },
  { bytes: [0xd0, 0xcf, 0x11, 0xe0], what: 'looks like an Excel .xls file: save it as CSV' },
  { bytes: [0x1f, 0x8b], what: 'looks like a gzip-compressed file: decompress it first' },
];

/** A reason to refuse the bytes as text, or undefined when they may be text. */
export function binaryReason(prefix: Uint8Array): string | undefined {
  if (startsWith(prefix, [0x50, 0x4b, 0x03, 0x04])) {
    // An .xlsx is a ZIP whose entries live under xl/; say which, since "ZIP" alone puzzles a seller.
    return Buffer.from(prefix).includes('xl/')
      ? 'looks like an Excel .xlsx file: save it as CSV'
      : 'looks like a ZIP archive: unpack it and give the CSV inside';
  }
  return MAGIC.find((magic) => startsWith(prefix, magic.bytes))?.what;
}

/**
 * The encoding of a source from its first bytes: a byte order mark wins; then UTF-8 if the bytes are
 * valid UTF-8; then Windows-1252, the encoding Excel uses for "CSV" on western Windows.
 * `complete` tells whether the prefix is the whole source (so a cut multi-byte character at its end
 * is an error rather than a chunk boundary).
 */
export function detectEncoding(prefix: Uint8Array, complete: boolean): EncodingGuess {
  if (startsWith(prefix, [0xef, 0xbb, 0xbf])) return { encoding: 'utf-8', reason: 'byte order mark' };
  if (startsWith(prefix, [0xff, 0xfe])) return { encoding: 'utf-16le', reason: 'byte order mark' };
  if (startsWith(prefix, [0xfe, 0xff])) return { encoding: 'utf-16be', reason: 'byte order mark' };
  const utf16 = utf16WithoutBom(prefix);
  if (utf16) return { encoding: utf16, reason: 'NUL byte pattern, no byte order mark' };
  if (isValidUtf8(prefix, complete)) return { encoding: 'utf-8', reason: 'valid UTF-8' };
  return { encoding: 'windows-1252', reason: 'not valid UTF-8' };
}

/** UTF-16 text of Latin characters has a NUL in every other byte; binary files have NULs anywhere. */
function utf16WithoutBom(prefix: Uint8Array): string | undefined {
  const pairs = Math.floor(Math.min(prefix.length, 4096) / 2);
  if (pairs < 2) return undefined;
  let evenNuls = 0;
  let oddNuls = 0;
  for (let i = 0; i < pairs; i++) {
    if (prefix[2 * i] === 0) evenNuls++;
    if (prefix[2 * i + 1] === 0) oddNuls++;
  }
  if (oddNuls >= pairs * 0.6 && evenNuls === 0) return 'utf-16le';
  if (evenNuls >= pairs * 0.6 && oddNuls === 0) return 'utf-16be';
  return undefined;
}

function isValidUtf8(bytes: Uint8Array, complete: boolean): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: !complete });
    return true;
  } catch {
    return false;
  }
}

function startsWith(bytes: Uint8Array, magic: number[]): boolean {
  return magic.every((byte, i) => bytes[i] === byte);
}

/** Single-byte and UTF-8 text never holds NUL; a NUL there means a binary file. */
export function hasNulByte(prefix: Uint8Array): boolean {
  return prefix.includes(0);
}
