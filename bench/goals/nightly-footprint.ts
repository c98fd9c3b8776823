import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandboxProcess } from '../big-import/processes.js';
import { prefixMemory } from '../big-import/redis-memory.js';
import { generateRows, nextExport, writeCatalogCsv } from '../sync/catalog.js';
import { expireOldRuns } from '../sync/expire-runs.js';
import { BENCH_KEY, BENCH_SELLER, measuredSync } from './measured-sync.js';
import { startBenchRedis, usedMemory } from './private-redis.js';
import type { GoalReport } from './result.js';
import { mib } from './result.js';
import { scaled } from './scale.js';

/** Runs kept (RUN_TTL_SECONDS, 7 days), and one night more: the first, a fresh sync, has expired. */
const KEPT_RUNS = 7;
const NIGHTS = KEPT_RUNS + 1;
const PREFIX = 'bench-goals';
const MAX_BYTES_PER_PRODUCT = 200;

/**
 * Goal 3: eight nightly runs of a 20,000-row catalog, 1% of rows with a new price each night, into
 * one sandbox seller (a process of its own, no latency), Redis private on port 6553. The first run,
 * a fresh sync, is then expired as its 7 days would (bench/sync/expire-runs.ts): the 7 re-runs kept
 * and the id map are the steady state of a nightly import. The
 * figure is MEMORY USAGE (SAMPLES 0) of the run and seller keys per product; queue keys and
 * `used_memory` are shown beside it.
 */
export async function measureNightlyFootprint(): Promise<GoalReport> {
  const rows = scaled(20_000);
  const dir = await mkdtemp(join(tmpdir(), 'bench-goals-nightly-'));
  const bench = await startBenchRedis(6553);
  const sandbox = await startSandboxProcess(BENCH_KEY, BENCH_SELLER);
  try {
    const baseline = await usedMemory(bench.redis);
    let catalog = generateRows(rows);
    for (let night = 1; night <= NIGHTS; night++) {
      const path = join(dir, `night-${night}.csv`);
      await writeCatalogCsv(path, catalog);
      await measuredSync(bench, sandbox.baseUrl, path, 16);
      catalog = nextExport(catalog, 0.01, 0).rows;
    }
    await expireOldRuns(bench.redis, PREFIX, KEPT_RUNS);
    const kept = await prefixMemory(bench.redis, PREFIX, true);
    const used = (await usedMemory(bench.redis)) - baseline;
    const perProduct = (kept.run + kept.seller) / rows;
    return {
      results: [
        {
          goal: `3. Redis kept per product, ${KEPT_RUNS} nightly runs kept of ${rows} rows (1% changed)`,
          figure: `${perProduct.toFixed(0)} B (runs ${(kept.run / rows).toFixed(0)} B, id map and seller ${(kept.seller / rows).toFixed(0)} B)`,
          bound: `≤ ${MAX_BYTES_PER_PRODUCT} B`,
          pass: perProduct <= MAX_BYTES_PER_PRODUCT,
          measured: { key: 'redis-bytes-per-product', value: perProduct },
          note:
            `used_memory grew ${mib(used)} (${(used / rows).toFixed(0)} B/product); queue keys ` +
            `${mib(kept.queue)} and event stream ${mib(kept.events)} besides`,
        },
      ],
    };
  } finally {
    await sandbox.stop();
    await bench.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
