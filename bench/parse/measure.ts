import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

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
