/**
 * How much the catalog stage costs over plain CSV parsing, on a 1,000,000-row generic catalog:
 * (a) csv-parse alone, (b) openSource + createMapper + validation. Prints rows/s of each, their
 * ratio, the peak RSS of (b), and the heap a million keys cost in the duplicate check.
 *
 *   npm run build && node dist/bench/parse-map-validate.js [rows]
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SeenKeys } from '../src/catalog/seen-keys.js';
import { writeGenericCatalog } from './parse/generate-catalog.js';
import { parseMapValidate } from './parse/map-validate.js';
import { collectGarbage, mib, parseOnly, withPeakRss } from './parse/measure.js';

/** The bytes held by the duplicate check (SeenKeys) for `count` keys like those of the catalog. */
function duplicateCheckMemory(count: number): number {
  const seen = new SeenKeys();
  for (let i = 1; i <= count; i++) seen.firstRow(`SKU-${String(i).padStart(7, '0')}`, i);
  if (seen.size !== count) throw new Error('the duplicate check lost keys');
  return seen.bytesHeld;
}

async function main(): Promise<void> {
  const rows = Number(process.argv[2] ?? 1_000_000);
  const dir = await mkdtemp(join(tmpdir(), 'bench-parse-'));
  const path = join(dir, 'catalog.csv');
  try {
    let started = performance.now();
    await writeGenericCatalog(path, rows);
    const size = (await stat(path)).size;
    console.log(
      `generated ${rows} rows (${mib(size)}) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    started = performance.now();
    const parsed = await parseOnly(path);
    const parseSeconds = (performance.now() - started) / 1000;
    if (parsed !== rows) throw new Error(`csv-parse read ${parsed} rows, expected ${rows}`);

    collectGarbage();
    started = performance.now();
    const { result: counts, peakRss } = await withPeakRss(() => parseMapValidate(path));
    const fullSeconds = (performance.now() - started) / 1000;
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    if (total !== rows) throw new Error(`the mapper gave ${total} rows, expected ${rows}`);

    const keysHeap = duplicateCheckMemory(rows);
    const rate = (n: number, s: number) => `${Math.round(n / s).toLocaleString('en-US')} rows/s`;
    console.log(
      `(a) csv-parse alone:              ${rate(rows, parseSeconds)} (${parseSeconds.toFixed(1)} s)`,
    );
    console.log(`(b) openSource + mapper + checks: ${rate(rows, fullSeconds)} (${fullSeconds.toFixed(1)} s)`);
    console.log(`    rows: ${JSON.stringify(counts)}`);
    console.log(`(b)/(a) throughput ratio:         ${(parseSeconds / fullSeconds).toFixed(2)}`);
    console.log(`(b) peak RSS:                     ${mib(peakRss)}`);
    console.log(
      `duplicate check, ${rows} keys:    ${mib(keysHeap)} in its buffers (a Map<key, row> took ~58.5 MiB)`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
