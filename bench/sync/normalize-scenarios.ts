import { join } from 'node:path';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { normalizeName, roundToCents } from '../../src/sandbox/normalize.js';
import { type CatalogRow, generateUntidyRows, nextExport, writeCatalogCsv } from './catalog.js';
import { type IdMapBytes, idMapBytes } from './id-map-bytes.js';
import { type Measure, measure, PAGE_SIZE, pages, REDIS_URL, sync } from './measure.js';

/**
 * Checks that the sandbox holds each row once, in its own form of the row (name collapsed, price in
 * cents); returns how many rows it keeps with both the name and the price in another form than sent.
 */
function checkStored(sandbox: Sandbox, rows: CatalogRow[], label: string): number {
  const products = sandbox.products(sandbox.defaultKey.seller);
  const bySku = new Map(products.map((p) => [p.sku, p]));
  if (products.length !== rows.length || bySku.size !== rows.length) {
    throw new Error(`${label}: the sandbox holds ${products.length} products, expected ${rows.length}`);
  }
  let reshaped = 0;
  for (const row of rows) {
    const stored = bySku.get(row.sku);
    const name = normalizeName(row.name);
    const price = roundToCents(Number(row.price));
    if (stored?.name !== name || stored?.price !== price) {
      throw new Error(
        `${label}: ${row.sku} stored as ${JSON.stringify(stored)}, expected "${name}" at ${price}`,
      );
    }
    if (stored.name !== row.name && stored.price !== Number(row.price)) reshaped++;
  }
  return reshaped;
}

interface Setting {
  rows: number;
  latencyMs: number;
  /** The benchmark's prefix; each scenario runs under a prefix of its own that starts with it. */
  prefix: string;
  dir: string;
}

/**
 * 6. An API that keeps its own form of names and prices (sandbox `normalize`): a fresh sync, then the
 *    same catalog again, which must read the list pages and write nothing.
 * 7. `--incremental` against the same kind of API, on a fresh seller: the first run (a full read and
 *    every create), the same catalog again (no request at all), then the next export with 1% of rows
 *    changed (those writes, no list page).
 * After each, the id map's bytes (8).
 */
export async function normalizeScenarios(
  setting: Setting,
): Promise<{ measures: Measure[]; bytes: IdMapBytes[] }> {
  const { rows, latencyMs, dir } = setting;
  const measures: Measure[] = [];
  const bytes: IdMapBytes[] = [];
  const base = generateUntidyRows(rows);
  const day1 = join(dir, 'untidy-day1.csv');
  await writeCatalogCsv(day1, base);
  const next = nextExport(base, 0.01, 0);
  const day2 = join(dir, 'untidy-day2.csv');
  await writeCatalogCsv(day2, next.rows);

  const normalizing = await startSandbox({ latencyMs, pageSize: PAGE_SIZE, normalize: true });
  try {
    const prefix = `${setting.prefix}-normalize`;
    const fresh = await sync(normalizing, prefix, day1, 8);
    measures.push(measure('6. fresh, API normalizes', rows, fresh, { listPages: pages(0), writes: rows }));
    const reshaped = checkStored(normalizing, base, '6. fresh');
    if (reshaped !== rows) {
      throw new Error(`6. only ${reshaped} of ${rows} rows have their name and price stored in another form`);
    }
    const again = await sync(normalizing, prefix, day1, 8);
    measures.push(measure('6. re-run, API normalizes', rows, again, { listPages: pages(rows), writes: 0 }));
    checkStored(normalizing, base, '6. re-run');
    bytes.push(await idMapBytes(REDIS_URL, prefix, 'after 6', rows));
  } finally {
    await normalizing.close();
  }

  const incremental = await startSandbox({ latencyMs, pageSize: PAGE_SIZE, normalize: true });
  try {
    const prefix = `${setting.prefix}-incremental`;
    const args = ['--incremental'];
    const first = await sync(incremental, prefix, day1, 8, args);
    measures.push(measure('7. --incremental, first run', rows, first, { listPages: pages(0), writes: rows }));
    const again = await sync(incremental, prefix, day1, 8, args);
    measures.push(measure('7. --incremental, unchanged', rows, again, { listPages: 0, writes: 0 }));
    const changed = await sync(incremental, prefix, day2, 8, args);
    measures.push(
      measure(`7. --incremental, ${next.changed} changed`, rows, changed, {
        listPages: 0,
        writes: next.changed,
      }),
    );
    checkStored(incremental, next.rows, '7. changed');
    bytes.push(await idMapBytes(REDIS_URL, prefix, 'after 7', rows));
  } finally {
    await incremental.close();
  }
  return { measures, bytes };
}
