/**
 * The request economy and throughput of a sync (docs/architecture.md, decision 3: requests per run
 * approach list pages + creates + updates). The CLI runs in this process against the sandbox Seller
 * API (in-process, with latency, so concurrency matters) and a real Redis under a unique prefix:
 *   1. a fresh sync of N rows: requests against list pages + N creates;
 *   2. the same catalog again: list pages only, no write;
 *   3. the next export, with 2% of rows changed and 1% new: writes against changed + new;
 *   4. the fresh sync at --concurrency 1, 4, 8 and 16, each on a fresh sandbox;
 *   5. a fresh sync and a re-run against an API that does not echo `sku` back;
 *   6. a fresh sync and a re-run against an API that keeps its own form of names and prices;
 *   7. `--incremental` against such an API: first run, unchanged re-run, 1% of rows changed;
 *   8. the bytes of the seller's id map in Redis after 6 and after 7.
 * Throws when a run's requests, writes or list pages differ from the ideal.
 *
 *   npm run build && node dist/bench/sync-economy.js [rows] [latencyMs]
 */

import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../src/sandbox/index.js';
import { generateRows, nextExport, writeCatalogCsv } from './sync/catalog.js';
import { printIdMapBytes } from './sync/id-map-bytes.js';
import {
  type Measure,
  measure,
  missedIdeal,
  PAGE_SIZE,
  pages,
  printTable,
  REDIS_URL,
  sync,
} from './sync/measure.js';
import { normalizeScenarios } from './sync/normalize-scenarios.js';
import { redisVersion, removeKeys } from './sync/redis-info.js';

async function main(): Promise<void> {
  const rows = Number(process.argv[2] ?? 5000);
  const latencyMs = Number(process.argv[3] ?? 5);
  const prefix = `bench-sync-${randomBytes(4).toString('hex')}`;
  const dir = await mkdtemp(join(tmpdir(), 'bench-sync-'));
  const measures: Measure[] = [];
  console.log(
    `machine: ${availableParallelism()} cpus (${cpus()[0]?.model ?? 'unknown'}), node ${process.version}, ` +
      `redis ${await redisVersion(REDIS_URL)}; ${rows} rows, sandbox latency ${latencyMs} ms, page size ${PAGE_SIZE}`,
  );
  try {
    const base = generateRows(rows);
    const day1 = join(dir, 'day1.csv');
    await writeCatalogCsv(day1, base);
    const next = nextExport(base, 0.02, 0.01);
    const day2 = join(dir, 'day2.csv');
    await writeCatalogCsv(day2, next.rows);

    const sandbox = await startSandbox({ latencyMs, pageSize: PAGE_SIZE });
    try {
      const fresh = await sync(sandbox, prefix, day1, 8);
      measures.push(measure('1. fresh sync', rows, fresh, { listPages: pages(0), writes: rows }));
      const again = await sync(sandbox, prefix, day1, 8);
      measures.push(measure('2. unchanged re-run', rows, again, { listPages: pages(rows), writes: 0 }));
      const incremental = await sync(sandbox, prefix, day2, 8);
      measures.push(
        measure(`3. ${next.changed} changed + ${next.added} new`, next.rows.length, incremental, {
          listPages: pages(rows),
          writes: next.changed + next.added,
        }),
      );
      const products = sandbox.products(sandbox.defaultKey.seller).length;
      if (products !== next.rows.length) {
        throw new Error(`the sandbox holds ${products} products, expected ${next.rows.length}`);
      }
    } finally {
      await sandbox.close();
    }

    const byConcurrency: Array<[number, Measure]> = [];
    for (const concurrency of [1, 4, 8, 16]) {
      const fresh = await startSandbox({ latencyMs, pageSize: PAGE_SIZE });
      try {
        const run = await sync(fresh, prefix, day1, concurrency);
        const m = measure(`4. fresh, --concurrency ${concurrency}`, rows, run, {
          listPages: 1,
          writes: rows,
        });
        byConcurrency.push([concurrency, m]);
        measures.push(m);
      } finally {
        await fresh.close();
      }
    }

    // An API that does not echo the match field back (spec 2.1: the representation is "not shown"):
    // the re-run must still write nothing, from what this tool remembers having sent.
    const hiding = await startSandbox({ latencyMs, pageSize: PAGE_SIZE, hideFields: ['sku'] });
    try {
      const fresh = await sync(hiding, prefix, day1, 8);
      measures.push(measure('5. fresh, API hides sku', rows, fresh, { listPages: pages(0), writes: rows }));
      const again = await sync(hiding, prefix, day1, 8);
      measures.push(measure('5. re-run, API hides sku', rows, again, { listPages: pages(rows), writes: 0 }));
    } finally {
      await hiding.close();
    }

    const normalizing = await normalizeScenarios({ rows, latencyMs, prefix, dir });
    measures.push(...normalizing.measures);

    printTable(measures);
    const one = byConcurrency[0]?.[1];
    if (one) {
      const ratios = byConcurrency.map(
        ([c, m]) => `${c}: ${(rows / m.seconds / (rows / one.seconds)).toFixed(2)}x`,
      );
      console.log(`rows/s relative to --concurrency 1: ${ratios.join(', ')}`);
    }
    printIdMapBytes(normalizing.bytes);
    // The benchmark is also a check: every run must use exactly the ideal number of requests.
    const missed = missedIdeal(measures);
    if (missed.length > 0) throw new Error(`runs off the ideal request count:\n${missed.join('\n')}`);
  } finally {
    const removed = await removeKeys(REDIS_URL, prefix);
    console.log(`removed ${removed} Redis keys under ${prefix}`);
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
