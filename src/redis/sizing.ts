import { DEFAULT_CHUNK_SIZE, DEFAULT_HIGH_WATER } from '../defaults.js';

/**
 * What a run keeps per updated row for `revert`: the values its PUT replaced and sent (a name and a
 * price: 205 to 213 bytes a row measured with MEMORY USAGE and used_memory over 20,000 rows).
 */
export const REPLACED_BYTES_PER_UPDATED_ROW = 210;

/**
 * What a running run holds in Redis per source row, at its peak, as measured in BENCHMARKS.md ("Big
 * import: memory and Redis", 50,000 and 200,000 rows): the run's data (outcomes and its copy of the
 * seller's products with their key lookups) 581 bytes, plus the seller's id map (kept): 313 bytes per
 * product since it remembers what was sent and what the API showed ("Sync: requests and
 * throughput", run 8), plus what an update replaced, kept 7 days for `revert`: counted for every
 * row, since any row may be an update. The room a run needs while it runs.
 *
 * What it keeps is far less: once a run ended it keeps for its 7 days its outcomes and record (runs/ended-run.ts): its copy of
 * the seller's products and its lookups are deleted, its plain `unchanged` outcomes packed.
 * bench/redis-footprint.ts (20,000 products, 8 nightly runs, the last 7 kept): a nightly re-run with
 * ~1% of rows changed keeps ~5 bytes a row (MEMORY USAGE); a run of creates or updates ~93 (a hash
 * field of JSON per row). With the id map (~250 bytes a product) a seller synced every night keeps
 * ~320 bytes a product (MEMORY USAGE; used_memory ~400), against ~4,600 (~5,000) before.
 */
export const KEPT_BYTES_PER_ROW = 581 + 313 + REPLACED_BYTES_PER_UPDATED_ROW;

/**
 * What a queued row costs while it waits in its chunk job (BENCHMARKS.md: ≈ 290 bytes per queued
 * row, 5.8 MiB for the 20,000 rows the producer queues at most before it waits for workers).
 */
export const QUEUED_BYTES_PER_ROW = 290;

/**
 * The rows queued at once at most (the producer's high-water mark): the mark counts chunks, and is
 * scaled to any chunk size (an `--incremental` run's are bigger) to hold these rows (queue/chunking.ts).
 */
export const MAX_QUEUED_ROWS = DEFAULT_HIGH_WATER * DEFAULT_CHUNK_SIZE;

/**
 * About how many bytes of Redis a run of `rows` rows needs at its peak. `sourceBytesPerRow`: the
 * source's bytes per record; a queued row also carries its raw values (for `report --failed-only`),
 * about that many bytes (JSON-quoted), on top of the measured 290. A row that fails keeps them for
 * the run's 7 days: not reserved here, since most rows do not fail (a run whose every row fails
 * keeps about the source's size more).
 */
export function runNeedBytes(rows: number, sourceBytesPerRow = 0): number {
  const queued = QUEUED_BYTES_PER_ROW + sourceBytesPerRow;
  return rows * KEPT_BYTES_PER_ROW + Math.min(rows, MAX_QUEUED_ROWS) * queued;
}
