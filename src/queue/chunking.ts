import { DEFAULT_CHUNK_SIZE, INCREMENTAL_CHUNK_SIZE } from '../defaults.js';
import { MAX_QUEUED_ROWS } from '../redis/sizing.js';
import type { RunSpec } from '../runs/run-store.js';

/**
 * Rows per chunk job of a run read from its source (`run`, `import`, a scheduled import: all go
 * through enqueueRun): bigger for `--incremental`, whose rows mostly send no request, so that a
 * chunk's Redis look-ups and its job are shared by more rows (defaults.ts, INCREMENTAL_CHUNK_SIZE).
 */
export function chunkSizeOf(spec: Pick<RunSpec, 'incremental'>): number {
  return spec.incremental === true ? INCREMENTAL_CHUNK_SIZE : DEFAULT_CHUNK_SIZE;
}

/**
 * The producer's high-water mark, in chunks of `chunkSize`: the rows queued at the mark stay within
 * MAX_QUEUED_ROWS (what the Redis sizing reserves), whatever the chunk size; 200 chunks of 100 rows,
 * 20 of 1,000. At least one chunk. The mark counts the seller's waiting jobs, whichever run queued
 * them: two runs of one seller producing at once with different chunk sizes may queue somewhat more.
 */
export function highWaterOf(chunkSize: number): number {
  return Math.max(1, Math.floor(MAX_QUEUED_ROWS / chunkSize));
}
