import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnCli, startSandboxProcess } from '../big-import/processes.js';
import { type CatalogRow, generateRows, writeCatalogCsv } from '../sync/catalog.js';
import { maxRssFlags, maxRssOf } from './max-rss.js';
import { BENCH_KEY, BENCH_SELLER } from './measured-sync.js';
import { startBenchRedis } from './private-redis.js';
import { count, type GoalReport, mib } from './result.js';
import { scaled } from './scale.js';
import { startTimingProxy } from './timing-proxy.js';

const LATENCY_MS = 5;
const PAGE_SIZE = 100;
const MAX_LIST_RATIO = 1.2;
/** "RSS flat": the run's peak RSS at 100k products at most this multiple of its peak at 10k. */
const MAX_RSS_RATIO = 1.2;

interface Rerun {
  products: number;
  listSeconds: number;
  rawSeconds: number;
  peakRss: number;
  writes: number;
}

async function seam(baseUrl: string, path: string, init?: RequestInit): Promise<unknown> {
  const response = await fetch(new URL(`/__sandbox${path}`, baseUrl), init);
  if (!response.ok) throw new Error(`sandbox seam ${path}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? null : response.json();
}

/** Puts the catalog's rows into the sandbox seller as they would be after a sync (so nothing differs). */
async function seed(baseUrl: string, rows: CatalogRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 5000) {
    const products = rows.slice(i, i + 5000).map((r) => ({ ...r, price: Number(r.price) }));
    await seam(baseUrl, `/products?seller=${BENCH_SELLER}`, {
      method: 'POST',
      body: JSON.stringify(products),
    });
  }
}

/** Every list page, one after the other, as fast as the API gives them: the list read's floor. */
async function fetchPagesRaw(baseUrl: string, pages: number): Promise<void> {
  const headers = { Authorization: `Bearer ${BENCH_KEY}`, Accept: 'application/json' };
  for (let page = 1; page <= pages; page++) {
    const response = await fetch(`${baseUrl}/products?page=${page}`, { headers });
    if (!response.ok) throw new Error(`raw list page ${page}: ${response.status}`);
    await response.arrayBuffer();
  }
}

/**
 * An unchanged re-run of a seller with `products` products: `catalog-sync run` (a child process, its
 * peak RSS from getrusage) against a sandbox process (5 ms latency, 100 per page) behind the timing
 * proxy, then the same pages fetched raw through the proxy.
 */
async function rerun(dir: string, redisUrl: string, products: number, prefix: string): Promise<Rerun> {
  const rows = generateRows(products);
  const path = join(dir, `catalog-${products}.csv`);
  await writeCatalogCsv(path, rows);
  const sandbox = await startSandboxProcess(BENCH_KEY, BENCH_SELLER, [
    '--latency',
    String(LATENCY_MS),
    '--page-size',
    String(PAGE_SIZE),
  ]);
  const proxy = await startTimingProxy(sandbox.baseUrl);
  try {
    await seed(sandbox.baseUrl, rows);
    await seam(sandbox.baseUrl, '/stats/reset', { method: 'POST' });
    const env = {
      SELLER_API_BASE_URL: proxy.url,
      SELLER_API_KEY: BENCH_KEY,
      REDIS_URL: redisUrl,
      CATALOG_SYNC_PREFIX: prefix,
      LOG_LEVEL: 'silent',
      PATH: process.env.PATH,
    };
    const cli = spawnCli(['run', path, '--concurrency', '16'], env, await maxRssFlags(dir));
    const code = await cli.exited;
    if (code !== 0) throw new Error(`run exited ${code}:\n${cli.output()}`);
    const listed = proxy.takeSpan();
    const stats = (await seam(sandbox.baseUrl, '/stats')) as { byRoute: Record<string, number> };
    const pages = Math.ceil(products / PAGE_SIZE);
    await fetchPagesRaw(proxy.url, pages);
    const raw = proxy.takeSpan();
    if (!listed || !raw) throw new Error('no list request went through the timing proxy');
    return {
      products,
      listSeconds: (listed.last - listed.first) / 1000,
      rawSeconds: (raw.last - raw.first) / 1000,
      peakRss: maxRssOf(cli.output()),
      writes: (stats.byRoute['POST /products'] ?? 0) + (stats.byRoute['PUT /products'] ?? 0),
    };
  } finally {
    await proxy.close();
    await sandbox.stop();
  }
}

/**
 * Goal 6: the list read of an unchanged re-run at 100,000 products against fetching the same pages
 * raw, and the run's peak RSS against a 10,000-product re-run. The sellers are seeded through the
 * sandbox seam with exactly the catalog's values, so the run finds every product unchanged. Redis
 * private on port 6556.
 */
export async function measureUnchangedRerun(): Promise<GoalReport> {
  const products = scaled(100_000);
  const dir = await mkdtemp(join(tmpdir(), 'bench-goals-rerun-'));
  const bench = await startBenchRedis(6556);
  try {
    const small = await rerun(dir, bench.url, products / 10, 'bench-goals-small');
    const big = await rerun(dir, bench.url, products, 'bench-goals-big');
    const listRatio = big.listSeconds / big.rawSeconds;
    const rssRatio = big.peakRss / small.peakRss;
    return {
      results: [
        {
          goal: `6. unchanged re-run, ${count(products)} products: list read`,
          figure: `${big.listSeconds.toFixed(2)} s = ${listRatio.toFixed(2)} × raw pages (${big.rawSeconds.toFixed(2)} s)`,
          bound: `≤ ${MAX_LIST_RATIO} ×`,
          pass: listRatio <= MAX_LIST_RATIO,
          note: `L = ${LATENCY_MS} ms, ${PAGE_SIZE} per page; writes: ${big.writes} (${small.writes} at ${count(small.products)})`,
        },
        {
          goal: `6. unchanged re-run: peak RSS at ${count(products)} vs ${count(small.products)} products`,
          figure: `${mib(big.peakRss)} vs ${mib(small.peakRss)} = ${rssRatio.toFixed(2)} ×`,
          bound: `≤ ${MAX_RSS_RATIO} × (flat)`,
          pass: rssRatio <= MAX_RSS_RATIO,
          note: 'peak RSS (getrusage) of `run`, a child process; "flat" read as ≤ 1.2× for 10× the products',
        },
      ],
    };
  } finally {
    await bench.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
