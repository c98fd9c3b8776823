import { pipeline, Readable, type Transform } from 'node:stream';
import { createGunzip, createInflate, createInflateRaw } from 'node:zlib';
import type { ByteSource } from './byte-source.js';
import { extensionOf } from './detect-format.js';
import { sniff } from './sniff.js';
import { SourceError, sourceError } from './source-error.js';

const GZIP_MAGIC = [0x1f, 0x8b] as const;

/**
 * A gzip-compressed source (a `.gz` file, or a feed that serves one), recognized by its first two
 * bytes, read through gunzip: the rest of the reading sees the inflated bytes, so the record cap
 * counts those (a 1 MB bomb inflating to 1 GiB stops at the first record over the cap). Other
 * sources are returned as they are, their first bytes replayed.
 */
export async function gunzipIfCompressed(bytes: ByteSource): Promise<{ source: ByteSource; gzip: boolean }> {
  const { prefix: head, chunks } = await sniff(bytes.chunks, GZIP_MAGIC.length);
  const gzip = GZIP_MAGIC.every((byte, i) => head[i] === byte);
  if (!gzip) return { source: { ...bytes, chunks }, gzip };
  const inflated = inflate(chunks, 'gzip', bytes.label);
  return {
    gzip,
    source: {
      label: bytes.label,
      extension: bytes.extension === 'gz' ? extensionOf(bytes.label.replace(/\.gz$/i, '')) : bytes.extension,
      ...(bytes.wireLength === undefined ? {} : { wireLength: bytes.wireLength }),
      chunks: inflated,
      async close() {
        // The source first: a read still waiting on it ends, so the generator can return.
        await bytes.close();
        await inflated.return(undefined).catch(() => undefined);
      },
    },
  };
}

/**
 * Inflates a stream of chunks (gzip, or HTTP's deflate: zlib-wrapped or, from some servers, raw),
 * one zlib buffer at a time, pulled as the reader asks: memory does not grow with the inflated size.
 */
export async function* inflate(
  input: AsyncIterator<Uint8Array> | AsyncIterable<Uint8Array>,
  kind: 'gzip' | 'deflate',
  label: string,
): AsyncGenerator<Uint8Array> {
  let chunks: AsyncIterator<Uint8Array> =
    Symbol.asyncIterator in input ? input[Symbol.asyncIterator]() : input;
  let zlib: Transform;
  if (kind === 'gzip') zlib = createGunzip();
  else {
    const sniffed = await sniff(chunks, 2);
    chunks = sniffed.chunks;
    zlib = isZlibHeader(sniffed.prefix) ? createInflate() : createInflateRaw();
  }
  const iterable: AsyncIterable<Uint8Array> = { [Symbol.asyncIterator]: () => chunks };
  const source = Readable.from(iterable, { objectMode: false, highWaterMark: 64 * 1024 });
  pipeline(source, zlib, () => undefined);
  try {
    for await (const chunk of zlib) yield chunk as Buffer;
  } catch (error) {
    if (error instanceof SourceError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw sourceError(label, `cannot decompress (${kind}): ${message}`);
  } finally {
    zlib.destroy();
    source.destroy();
  }
}

/** RFC 1950: compression method 8 and a header checksum that divides by 31. */
function isZlibHeader(head: Buffer): boolean {
  return head.length >= 2 && (head[0]! & 0x0f) === 8 && ((head[0]! << 8) | head[1]!) % 31 === 0;
}
