import { readFile, writeFile } from 'node:fs/promises';

/**
 * Peak RSS of this process while `work` runs, above the RSS it had when `work` began: the memory the
 * work itself needed. Linux resets the high-water mark on `5 > /proc/self/clear_refs`; where that is
 * refused, RSS is sampled every 10 ms instead.
 */
export async function peakRssGrowth<T>(work: () => Promise<T>): Promise<{ result: T; bytes: number }> {
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  const reset = await writeFile('/proc/self/clear_refs', '5').then(
    () => true,
    () => false,
  );
  let sampled = before;
  const sampler = setInterval(() => {
    sampled = Math.max(sampled, process.memoryUsage().rss);
  }, 10);
  try {
    const result = await work();
    const peak = reset ? Math.max(sampled, await highWaterMark()) : sampled;
    return { result, bytes: Math.max(0, peak - before) };
  } finally {
    clearInterval(sampler);
  }
}

async function highWaterMark(): Promise<number> {
  const status = await readFile('/proc/self/status', 'utf8');
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
}
