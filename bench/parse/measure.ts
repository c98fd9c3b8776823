import { createReadStream } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parse } from 'csv-parse';

/** Samples the resident set size every 100 ms while `work` runs; returns its result and the peak. */
export async function withPeakRss<T>(work: () => Promise<T>): Promise<{ result: T; peakRss: number }> {
  let peakRss = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 100);
  try {
    const result = await work();
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    return { result, peakRss };
  } finally {
    clearInterval(timer);
  }
}

/** A full garbage collection, without asking the user for --expose-gc. */
export function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
}

export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** Rows of a CSV file read by csv-parse alone (arrays, no record objects): the raw parsing speed. */
export async function parseOnly(path: string): Promise<number> {
  let rows = 0;
  for await (const _ of createReadStream(path).pipe(parse({ from_line: 2 }))) rows++;
  return rows;
}
