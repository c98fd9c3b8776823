import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { SourceRecord } from '../../../src/interfaces.js';
import { type OpenedSource, type OpenSourceOptions, openSource } from '../../../src/sources/index.js';

/** A temp folder for files the tests write byte by byte; `remove()` in afterAll. */
export function tempFolder(): { write(name: string, content: string | Uint8Array): string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-sync-sources-'));
  return {
    write(name, content) {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function readAll(source: OpenedSource): Promise<SourceRecord[]> {
  const records: SourceRecord[] = [];
  for await (const record of source.records) records.push(record);
  return records;
}

/** Opens a source and reads every record. */
export async function openAndRead(
  source: string,
  options?: OpenSourceOptions,
): Promise<{ opened: OpenedSource; records: SourceRecord[] }> {
  const opened = await openSource(source, options);
  return { opened, records: await readAll(opened) };
}

/** Standard input that delivers `bytes` in chunks of `size` bytes. */
export function stdinOf(bytes: Uint8Array | string, size = 1024 * 1024): PassThrough {
  const buffer = typeof bytes === 'string' ? Buffer.from(bytes) : Buffer.from(bytes);
  const stream = new PassThrough();
  (async () => {
    for (let at = 0; at < buffer.length; at += size) {
      if (!stream.write(buffer.subarray(at, at + size))) await new Promise((go) => stream.once('drain', go));
    }
    stream.end();
  })();
  return stream;
}

/** Reads a CSV given as text from standard input. */
export function readCsvText(text: string, options: OpenSourceOptions = {}) {
  return openAndRead('-', { ...options, stdin: stdinOf(text) });
}
