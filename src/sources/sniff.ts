import { SNIFF_BYTES } from '../defaults.js';

/** The first bytes of a source, read for detection, and the whole source again with them in front. */
export interface Sniffed {
  prefix: Buffer;
  /** True when the prefix is the whole source. */
  complete: boolean;
  /** Every chunk of the source from the first byte: the prefix, then the rest as it streams. */
  chunks: AsyncGenerator<Uint8Array>;
}

/**
 * Reads chunks until `size` bytes or the end. Only this prefix is ever held whole: the rest streams,
 * so a million-row file costs the same memory as a ten-row one.
 */
export async function sniff(chunks: AsyncIterator<Uint8Array>, size = SNIFF_BYTES): Promise<Sniffed> {
  const head: Uint8Array[] = [];
  let length = 0;
  let complete = false;
  while (length < size) {
    const next = await chunks.next();
    if (next.done) {
      complete = true;
      break;
    }
    head.push(next.value);
    length += next.value.length;
  }
  const prefix = Buffer.concat(head);
  async function* replay(): AsyncGenerator<Uint8Array> {
    try {
      if (prefix.length > 0) yield prefix;
      if (complete) return;
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
    } finally {
      await chunks.return?.(undefined);
    }
  }
  return { prefix, complete, chunks: replay() };
}
