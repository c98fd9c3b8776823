import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { stringify } from 'csv-stringify';
import { guardCell, QUOTED_MATCH } from '../csv-guard.js';
import { makeScratchFolder, removeScratchFolder } from '../scratch-folder.js';
import { jsonTerminalSafe, terminalSafe } from '../terminal-safe.js';

/** How one kind of record (orders, products) becomes CSV; the JSON-lines form is the record as received. */
export interface CsvShape {
  /** The record's cells by column (a value left out is an empty cell). */
  cells(fields: Record<string, unknown>): Record<string, string>;
  /** The columns in the order written, from every column seen (in the order first seen). */
  columns(seen: readonly string[]): string[];
}

export interface ExportTarget {
  format: 'csv' | 'lines';
  /** Standard output (control characters shown as `\xHH`) or a file (kept as they are). */
  out: NodeJS.WritableStream;
  terminal: boolean;
  /** Aborted on SIGTERM/SIGINT: the export stops at once and its scratch folder is removed. */
  signal?: AbortSignal;
}

/**
 * Writes every record of every page, page by page, and resolves to how many. JSON lines: each
 * record as received, one a line. CSV needs every column before its first line, so the records go
 * to a scratch JSON-lines file first (their cells) while the columns are gathered, then to CSV:
 * memory holds a page and the column names, never the whole export. Every CSV cell (header too)
 * passes guardCell (csv-guard.ts); this tool's CSV reader takes the guard off again.
 */
export async function exportRecords(
  pages: AsyncIterable<ReadonlyArray<{ fields: Record<string, unknown> }>>,
  shape: CsvShape,
  target: ExportTarget,
): Promise<number> {
  const scratch = await makeScratchFolder('catalog-sync-export-');
  const linesPath = join(scratch, 'records.jsonl');
  const seen = new Set<string>();
  let count = 0;
  try {
    const lines = target.format === 'lines' ? target.out : createWriteStream(linesPath);
    for await (const page of untilAborted(pages, target.signal)) {
      for (const record of page) {
        let json: string;
        if (target.format === 'lines') json = JSON.stringify(record.fields);
        else {
          const cells = shape.cells(record.fields);
          for (const column of Object.keys(cells)) seen.add(column);
          json = JSON.stringify(cells);
        }
        // On standard output, the API's text is shown, never obeyed by a terminal (JSON escapes C0 itself).
        const shown = target.terminal && target.format === 'lines' ? jsonTerminalSafe(json) : json;
        if (!lines.write(`${shown}\n`)) await once(lines, 'drain');
        count++;
      }
    }
    if (target.format === 'csv') {
      lines.end();
      await once(lines, 'finish');
      await writeCsv(linesPath, shape.columns([...seen]), target);
    }
    return count;
  } finally {
    await removeScratchFolder(scratch);
  }
}

/**
 * The pages until `signal` aborts: then the wait for the next page ends at once, with its reason.
 * Each wait has its own abort promise, let go once the page came: racing every page against one
 * promise that never settles would keep a reaction, and through it the page, for each of them (an
 * endless list of the API's filled the heap long before the answer caps, issue 32's item 10).
 */
async function* untilAborted<T>(pages: AsyncIterable<T>, signal: AbortSignal | undefined): AsyncGenerator<T> {
  if (!signal) return yield* pages;
  const iterator = pages[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await nextUnlessAborted(iterator, signal);
      if (next.done) return;
      yield next.value;
    }
  } finally {
    // Not awaited: a page still on its way is let go (the process is ending).
    iterator.return?.()?.catch(() => undefined);
  }
}

async function nextUnlessAborted<T>(
  iterator: AsyncIterator<T>,
  signal: AbortSignal,
): Promise<IteratorResult<T>> {
  signal.throwIfAborted();
  let stop = () => {};
  const aborted = new Promise<never>((_, reject) => {
    stop = () => reject(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
  });
  try {
    return await Promise.race([iterator.next(), aborted]);
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

async function writeCsv(linesPath: string, columns: string[], target: ExportTarget): Promise<void> {
  const cell = target.terminal ? (text: string) => terminalSafe(guardCell(text)) : guardCell;
  const csv = stringify({
    header: true,
    columns: columns.map((key) => ({ key, header: cell(key) })),
    quoted_match: QUOTED_MATCH,
  });
  csv.pipe(target.out, { end: false });
  // The file failed and was closed (a full disk, output-file.ts): no 'drain' would ever come, so
  // the CSV stops with an error, and the scratch folder is removed (exportRecords' finally).
  const stop = () => csv.destroy(new Error('the output file was closed'));
  target.out.once('close', stop);
  try {
    for await (const line of createInterface({ input: createReadStream(linesPath) })) {
      target.signal?.throwIfAborted();
      const record = JSON.parse(line) as Record<string, string>;
      for (const key of Object.keys(record)) record[key] = cell(record[key] as string);
      if (!csv.write(record)) await once(csv, 'drain');
    }
    csv.end();
    await once(csv, 'end');
  } finally {
    target.out.removeListener('close', stop);
  }
}
