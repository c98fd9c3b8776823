import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { gzipSync } from 'node:zlib';

/**
 * Hostile inputs for issue 10, written as streams (never held whole): an NDJSON file whose second
 * line is `lineBytes` long, and a gzip bomb (a small file that inflates to `inflatedBytes`, one
 * NDJSON line). Shared by `test/hostile/` and `bench/hostile-inputs.ts`.
 */

async function write(stream: WriteStream, data: string | Buffer): Promise<void> {
  if (!stream.write(data)) await once(stream, 'drain');
}

async function finish(stream: WriteStream): Promise<void> {
  stream.end();
  await once(stream, 'finish');
}

/** `{"sku":"OK-1",…}` then one line of `lineBytes` bytes (a name of `x`), then a last good line. */
export async function writeLongLineNdjson(path: string, lineBytes: number): Promise<void> {
  const out = createWriteStream(path);
  await write(out, '{"sku":"OK-1","name":"before","price":1}\n');
  const head = '{"sku":"HUGE","name":"';
  const tail = '","price":1}\n';
  await write(out, head);
  const block = 'x'.repeat(1024 * 1024);
  let left = lineBytes - head.length - tail.length;
  while (left > 0) {
    const piece = left >= block.length ? block : block.slice(0, left);
    await write(out, piece);
    left -= piece.length;
  }
  await write(out, tail);
  await write(out, '{"sku":"OK-2","name":"after","price":1}\n');
  await finish(out);
}

/**
 * A gzip bomb: members of gzip concatenated (gunzip reads them as one stream), the first holding
 * `{"sku":"BOMB","name":"` and 1 MiB of `a`, each next one 1 MiB more of `a`: about 1 KiB on disk per
 * MiB inflated, so 1 GiB inflated is a file of about 1 MB. Returns the size written.
 */
export async function writeGzipBomb(path: string, inflatedBytes: number): Promise<number> {
  const mebibyte = 1024 * 1024;
  const block = Buffer.alloc(mebibyte, 'a');
  const first = gzipSync(Buffer.concat([Buffer.from('{"sku":"BOMB","name":"'), block]), { level: 9 });
  const member = gzipSync(block, { level: 9 });
  const out = createWriteStream(path);
  let written = 0;
  await write(out, first);
  written += first.length;
  for (let inflated = mebibyte; inflated < inflatedBytes; inflated += mebibyte) {
    await write(out, member);
    written += member.length;
  }
  await finish(out);
  return written;
}

/**
 * An RSS feed whose second item nests `depth` elements (`<a>` … `</a>`, 7 bytes a level: a million
 * levels stay under the 8 MiB cap), between two good items. An XML parser holds an object per open
 * element: unfiltered, a million levels take about 270 MB.
 */
export async function writeDeepXml(path: string, depth: number): Promise<void> {
  const out = createWriteStream(path);
  const item = (sku: string) => `<item><sku>${sku}</sku><name>${sku}</name><price>1.00</price></item>\n`;
  await write(out, '<?xml version="1.0"?>\n<rss><channel>\n');
  await write(out, item('OK-1'));
  await write(out, '<item><sku>DEEP</sku><name>deep</name><price>1.00</price>');
  const block = 64 * 1024;
  for (let left = depth; left > 0; left -= block) await write(out, '<a>'.repeat(Math.min(block, left)));
  for (let left = depth; left > 0; left -= block) await write(out, '</a>'.repeat(Math.min(block, left)));
  await write(out, '</item>\n');
  await write(out, item('OK-2'));
  await write(out, '</channel></rss>\n');
  await finish(out);
}
