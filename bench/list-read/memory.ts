import { readFile, writeFile } from 'node:fs/promises';

/**
 * Peak RSS of this process while `work` runs, above the RSS it had when `work` began: the memory the
 * work itself needed (V8 lets garbage pile up between collections, so it varies by a few MiB). Linux resets the high-water mark on `5 > /proc/self/clear_refs`; where that is
 * refused, RSS is sampled every 10 ms instead.
 */
export async function peakRssGrowth<T>(
  work: () => Promise<T>,
): Promise<{ result: T; bytes: number; retainedHeap: number }> {
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  const heapBefore = process.memoryUsage().heapUsed;
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
    // What the work still holds once it is done (with --expose-gc): nothing should grow with N.
    globalThis.gc?.();
    const retainedHeap = process.memoryUsage().heapUsed - heapBefore;
    return { result, bytes: Math.max(0, peak - before), retainedHeap };
  } finally {
    clearInterval(sampler);
  }
}

async function highWaterMark(): Promise<number> {
  const status = await readFile('/proc/self/status', 'utf8');
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
}
