import { isUtf8 } from 'node:buffer';
import type Iconv from 'iconv-lite';
import { iconv } from '../cjs-packages.js';
import { badBytesMark } from './bad-bytes.js';
import { hasMarkNoncharacter, incompleteTail, sequenceLength } from './utf8.js';

/** What the decoder met; read by the records' check once the text is parsed. */
export interface DecodeState {
  /** How many runs of bytes not valid in the encoding were marked (see bad-bytes.ts). */
  marked: number;
  /** The 1-based position of the first such byte. */
  first?: number;
}

interface Decoder {
  write(chunk: Buffer): string;
  end(): string;
}

/**
 * Decodes bytes to text. UTF-8 (most sources) by Node's own decoder once the bytes are checked;
 * other encodings with iconv-lite (Node's TextDecoder maps Windows-1252 0x80–0x9F to C1 controls,
 * so `€` and `–` would be lost). A character cut between two chunks waits for its last byte, and a
 * byte order mark is dropped. Bytes that are not valid in the encoding become a mark naming the
 * byte (bad-bytes.ts), never U+FFFD: the record that holds them is then invalid.
 */
export async function* decodeChunks(
  chunks: AsyncIterable<Uint8Array>,
  encoding: string,
  state: DecodeState = { marked: 0 },
): AsyncGenerator<string> {
  const decoder = createDecoder(encoding, state);
  for await (const chunk of chunks) {
    const text = decoder.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if (text) yield text;
  }
  const rest = decoder.end();
  if (rest) yield rest;
}

/** Decodes a whole buffer (the sniffed prefix) for detection. */
export function decodeAll(bytes: Buffer, encoding: string): string {
  const decoder = createDecoder(encoding, { marked: 0 });
  return decoder.write(bytes) + decoder.end();
}

export function isKnownEncoding(encoding: string): boolean {
  return iconv().encodingExists(encoding);
}

export function isUtf8Encoding(encoding: string): boolean {
  return /^utf-?8$/i.test(encoding);
}

function createDecoder(encoding: string, state: DecodeState): Decoder {
  if (isUtf8Encoding(encoding)) return new Utf8Decoder(state);
  if (isSingleByte(encoding)) return new SingleByteDecoder(encoding, state);
  return new MultiByteDecoder(encoding, state);
}

const MARK_CHARACTERS = /[\uFDD0-\uFDEF]+/g;

/**
 * Any other encoding (UTF-16, Shift_JIS, GBK, …), by iconv-lite. Such a source can hold the
 * noncharacters U+FDD0…U+FDEF that marks are made of (UTF-16 encodes them as any other character,
 * and one flipped byte makes one): each run of them is marked as bad bytes, so that a mark is never
 * mistaken for text. In UTF-16 the mark names the run's first byte; in the others, whose characters
 * vary in length, the first byte of the chunk it was read in.
 */
class MultiByteDecoder implements Decoder {
  private readonly decoder: ReturnType<typeof Iconv.getDecoder>;
  private readonly unitBytes: number | null;
  private bytesIn = 0;
  private unitsOut = 0;
  private bomBytes = 0;

  constructor(
    encoding: string,
    private readonly state: DecodeState,
  ) {
    this.decoder = iconv().getDecoder(encoding, { stripBOM: true });
    this.unitBytes = /^(utf-?16|ucs-?2)/i.test(encoding) ? 2 : null;
  }

  write(chunk: Buffer): string {
    const start = this.bytesIn;
    if (start === 0 && this.unitBytes && hasUtf16Bom(chunk)) this.bomBytes = 2;
    this.bytesIn += chunk.length;
    return this.guard(this.decoder.write(chunk), start);
  }

  end(): string {
    return this.guard(this.decoder.end() ?? '', this.bytesIn);
  }

  private guard(text: string, chunkStart: number): string {
    const unitsBefore = this.unitsOut;
    this.unitsOut += text.length;
    if (!/[\uFDD0-\uFDEF]/.test(text)) return text;
    return text.replace(MARK_CHARACTERS, (_run: string, at: number) => {
      const byte = this.unitBytes ? this.bomBytes + (unitsBefore + at) * this.unitBytes : chunkStart;
      return markBadBytes(this.state, byte + 1);
    });
  }
}

function hasUtf16Bom(chunk: Buffer): boolean {
  return (
    chunk.length >= 2 &&
    ((chunk[0] === 0xff && chunk[1] === 0xfe) || (chunk[0] === 0xfe && chunk[1] === 0xff))
  );
}

/**
 * UTF-8, checked: a chunk that is valid UTF-8 (nearly always) is decoded at once; one that is not is
 * walked sequence by sequence, and each run of bad bytes becomes one mark. The noncharacters
 * U+FDD0…U+FDEF count as bad, so that a mark is never mistaken for text.
 */
class Utf8Decoder implements Decoder {
  private carry: Buffer = Buffer.alloc(0);
  /** Byte position (0-based) of the next chunk's first byte, carried bytes included. */
  private offset = 0;
  private atStart = true;

  constructor(private readonly state: DecodeState) {}

  write(chunk: Buffer): string {
    const bytes = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    const tail = incompleteTail(bytes);
    const body = tail > 0 ? bytes.subarray(0, bytes.length - tail) : bytes;
    this.carry = tail > 0 ? Buffer.from(bytes.subarray(bytes.length - tail)) : Buffer.alloc(0);
    const text = this.decode(body);
    this.offset += body.length;
    return this.stripBom(text);
  }

  end(): string {
    if (this.carry.length === 0) return '';
    // A sequence cut by the end of the source.
    const text = this.mark(this.offset);
    this.offset += this.carry.length;
    this.carry = Buffer.alloc(0);
    return this.stripBom(text);
  }

  private decode(body: Buffer): string {
    if (body.length === 0) return '';
    if (isUtf8(body) && !hasMarkNoncharacter(body)) return body.toString('utf8');
    let text = '';
    let runStart = 0;
    let i = 0;
    while (i < body.length) {
      const length = sequenceLength(body, i);
      if (length > 0) {
        i += length;
        continue;
      }
      text += body.toString('utf8', runStart, i) + this.mark(this.offset + i);
      i++;
      while (i < body.length && sequenceLength(body, i) === 0) i++;
      runStart = i;
    }
    return text + body.toString('utf8', runStart, i);
  }

  private mark(offset: number): string {
    return markBadBytes(this.state, offset + 1);
  }

  private stripBom(text: string): string {
    if (!this.atStart || text === '') return text;
    this.atStart = false;
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }
}

/**
 * A single-byte encoding (Windows-1252, Latin-1, …): one byte is one character, so a byte the
 * encoding leaves undefined (Windows-1252's 0x81, 0x8D, 0x8F, 0x90, 0x9D), which iconv-lite turns
 * into U+FFFD, is found at the same index and marked instead.
 */
class SingleByteDecoder implements Decoder {
  private readonly decoder: ReturnType<typeof Iconv.getDecoder>;
  private offset = 0;

  constructor(
    encoding: string,
    private readonly state: DecodeState,
  ) {
    this.decoder = iconv().getDecoder(encoding);
  }

  write(chunk: Buffer): string {
    const text = this.decoder.write(chunk);
    const start = this.offset;
    this.offset += chunk.length;
    if (!text.includes('\uFFFD')) return text;
    let out = '';
    let from = 0;
    for (let at = text.indexOf('\uFFFD'); at !== -1; at = text.indexOf('\uFFFD', at + 1)) {
      out += text.slice(from, at);
      if (at === 0 || text.charCodeAt(at - 1) !== 0xfffd) out += markBadBytes(this.state, start + at + 1);
      from = at + 1;
    }
    return out + text.slice(from);
  }

  end(): string {
    return this.decoder.end() ?? '';
  }
}

function markBadBytes(state: DecodeState, byte: number): string {
  state.marked++;
  state.first ??= byte;
  return badBytesMark(byte);
}

const singleByteEncodings = new Map<string, boolean>();

/** True for an encoding in which every byte is one character (so positions are byte positions). */
function isSingleByte(encoding: string): boolean {
  const key = encoding.toLowerCase();
  let single = singleByteEncodings.get(key);
  if (single === undefined) {
    const all = Buffer.alloc(256);
    for (let byte = 0; byte < 256; byte++) all[byte] = byte;
    single = iconv().decode(all, encoding).length === 256;
    singleByteEncodings.set(key, single);
  }
  return single;
}

/**
 * Line breaks as `\n` only. csv-parse miscounts lines when a quoted field holds `\r\n`, and the
 * `line` of each record must be the physical line; `\r\n` and a lone `\r` each still count as one line.
 */
export async function* normalizeLineBreaks(text: AsyncIterable<string>): AsyncGenerator<string> {
  let pendingCr = false;
  for await (let chunk of text) {
    if (pendingCr) chunk = `\r${chunk}`;
    pendingCr = chunk.endsWith('\r');
    if (pendingCr) chunk = chunk.slice(0, -1);
    if (chunk) yield chunk.replace(/\r\n?/g, '\n');
  }
  if (pendingCr) yield '\n';
}
