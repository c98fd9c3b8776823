import { incompleteTail, sequenceLength } from './utf8.js';

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
 * The encoding of a source from its first bytes: a byte order mark wins; then UTF-8 when the bytes
 * hold at least one valid UTF-8 multi-byte sequence, or no byte above 0x7F at all, even if a few
 * bytes are not UTF-8 (those rows are then invalid: a UTF-8 export with one stray Windows-1252 byte
 * must not be read as Windows-1252 whole, in mojibake); Windows-1252, the encoding Excel uses for
 * "CSV" on western Windows, only for high bytes none of which is in a UTF-8 sequence.
 * `complete` tells whether the prefix is the whole source (so a cut multi-byte character at its end
 * is an error rather than a chunk boundary).
 */
export function detectEncoding(prefix: Uint8Array, complete: boolean): EncodingGuess {
  if (startsWith(prefix, [0xef, 0xbb, 0xbf])) return { encoding: 'utf-8', reason: 'byte order mark' };
  if (startsWith(prefix, [0xff, 0xfe])) return { encoding: 'utf-16le', reason: 'byte order mark' };
  if (startsWith(prefix, [0xfe, 0xff])) return { encoding: 'utf-16be', reason: 'byte order mark' };
  const utf16 = utf16WithoutBom(prefix);
  if (utf16) return { encoding: utf16, reason: 'NUL byte pattern, no byte order mark' };
  const { sequences, badBytes } = scanUtf8(prefix, complete);
  if (badBytes === 0) return { encoding: 'utf-8', reason: 'valid UTF-8' };
  if (sequences > 0) {
    return {
      encoding: 'utf-8',
      reason: `UTF-8, but ${badBytes === 1 ? '1 byte is' : `${badBytes} bytes are`} not: those rows are invalid`,
    };
  }
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

/** Valid multi-byte UTF-8 sequences, and bytes in none; a sequence cut by the end of a partial prefix is neither. */
function scanUtf8(prefix: Uint8Array, complete: boolean): { sequences: number; badBytes: number } {
  const whole = Buffer.from(prefix.buffer, prefix.byteOffset, prefix.byteLength);
  const end = complete ? whole.length : whole.length - incompleteTail(whole);
  const bytes = whole.subarray(0, end);
  let sequences = 0;
  let badBytes = 0;
  for (let i = 0; i < end; ) {
    if (bytes[i]! < 0x80) {
      i++;
      continue;
    }
    const length = sequenceLength(bytes, i);
    if (length === 0) {
      badBytes++;
      i++;
    } else {
      sequences++;
      i += length;
    }
  }
  return { sequences, badBytes };
}

function startsWith(bytes: Uint8Array, magic: number[]): boolean {
  return magic.every((byte, i) => bytes[i] === byte);
}

/** Single-byte and UTF-8 text never holds NUL; a NUL there means a binary file. */
export function hasNulByte(prefix: Uint8Array): boolean {
  return prefix.includes(0);
}
