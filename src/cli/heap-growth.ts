/**
 * How far V8 lets the heap grow past what survived its last full collection before it collects
 * again. By default it grows up to 4× for a fast-allocating process: a sync's live heap stays near
 * 20 MB, yet its peak RSS rose with the catalog's size (133 MiB at 10,000 products, 180 MiB at
 * 100,000, BENCHMARKS.md "Issue 12"), all of it garbage waiting for a collection. At 30% it is flat
 * (118 vs 126 MiB) and CPU per row did not measurably change: the extra collections are incremental
 * and the live heap is small.
 *
 * Loaded first by the launcher (bin/catalog-sync.js), before anything allocates. The flag is a
 * heuristic V8 reads at each collection, so setting it at run time takes effect.
 */

import { setFlagsFromString } from 'node:v8';
import { HEAP_GROWING_PERCENT } from '../defaults.js';

/** The V8 flag to set, or null when the operator set their own (`node --heap-growing-percent=N`). */
export function heapGrowthFlag(execArgv: readonly string[]): string | null {
  if (execArgv.some((arg) => /^--heap[-_]growing[-_]percent\b/.test(arg))) return null;
  return `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
}

const flag = heapGrowthFlag(process.execArgv);
if (flag) setFlagsFromString(flag);
