/**
 * What Redis keeps per product in the steady state of nightly imports (issue 12: ≤ 200 B): a seller
 * of N products synced 7 nights in a row (the first a fresh sync, then re-runs with ~1% of rows
 * changed), every run still kept for `report` (RUN_TTL_SECONDS is 7 days), plus the seller's id map.
 * Runs on a redis-server of its own (nothing else in it), started and stopped here, so used_memory
 * counts only what catalog-sync keeps; prints used_memory and MEMORY USAGE summed per kind of key.
 *
 *   npm run build && node dist/bench/redis-footprint.js [rows] [port]
 */

import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { redisAnswers } from '../src/redis/private-server.js';
import { startSandbox } from '../src/sandbox/index.js';
import { type CatalogRow, generateRows, writeCatalogCsv } from './sync/catalog.js';
import { runCli } from './sync/cli-run.js';
import { expireOldRuns } from './sync/expire-runs.js';

/** Runs kept at once: RUN_TTL_SECONDS is 7 days. */
const KEPT_RUNS = 7;
/** One night more than are kept: the first (a fresh sync) has expired in the steady state. */
const NIGHTS = KEPT_RUNS + 1;
const PREFIX = 'footprint';
/** Issue 12: Redis kept per product in the steady state of nightly imports. */
const GOAL_BYTES_PER_PRODUCT = 200;

/** The next night's export: every 100th row (shifted each night) with a new price. */
function nightly(rows: CatalogRow[], night: number): CatalogRow[] {
  return rows.map((r, i) => ((i + night) % 100 === 0 ? { ...r, price: `${(i % 500) + night}.25` } : r));
}

/** A key's kind: the key with its run id and seller ref taken out. */
function kindOf(key: string): string {
  return key
    .slice(PREFIX.length + 1)
    .replace(/^run:[^:]+/, 'run:<id>')
    .replace(/^seller:[^:]+/, 'seller:<ref>')
    .replace(/^(seller:<ref>:ids(?:-reverse)?):\d+$/, '$1:<bucket>')
    .replace(/^sync-[0-9a-f]+/, '<queue>');
}

async function memoryByKind(redis: Redis): Promise<Map<string, { keys: number; bytes: number }>> {
  const kinds = new Map<string, { keys: number; bytes: number }>();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'COUNT', 1000);
    cursor = next;
    for (const key of keys) {
      const bytes = Number(await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0'));
      const kind = kindOf(key);
      const entry = kinds.get(kind) ?? { keys: 0, bytes: 0 };
      entry.keys++;
      entry.bytes += bytes;
      kinds.set(kind, entry);
    }
  } while (cursor !== '0');
  return kinds;
}

async function usedMemory(redis: Redis): Promise<number> {
  // A run's end UNLINKs its copy of the products: wait until Redis freed it in the background.
  while (/lazyfree_pending_objects:([1-9])/.test(await redis.info('memory'))) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Number(/used_memory:(\d+)/.exec(await redis.info('memory'))?.[1]);
}

async function startRedis(port: number): Promise<() => void> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 50 && !(await redisAnswers(`redis://127.0.0.1:${port}`, 200)); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return () => child.kill('SIGTERM');
}

async function main(): Promise<void> {
  const products = Number(process.argv[2] ?? 20000);
  const port = Number(process.argv[3] ?? 6531);
  const url = `redis://127.0.0.1:${port}`;
  const stop = await startRedis(port);
  const redis = new Redis(url);
  const dir = await mkdtemp(join(tmpdir(), 'bench-footprint-'));
  const sandbox = await startSandbox({ latencyMs: 0, pageSize: 100 });
  try {
    const empty = await usedMemory(redis);
    let rows = generateRows(products);
    console.log(`${products} products, ${NIGHTS} nightly runs; redis ${url} (its own server)`);
    console.log('| night | used_memory − empty, B/product | MEMORY USAGE summed, B/product |');
    let kinds = new Map<string, { keys: number; bytes: number }>();
    for (let night = 1; night <= NIGHTS; night++) {
      if (night > 1) rows = nightly(rows, night);
      const path = join(dir, `night-${night}.csv`);
      await writeCatalogCsv(path, rows);
      const result = await runCli(['run', path, '--concurrency', '8'], {
        SELLER_API_BASE_URL: sandbox.baseUrl,
        SELLER_API_KEY: sandbox.defaultKey.key,
        REDIS_URL: url,
        CATALOG_SYNC_PREFIX: PREFIX,
        LOG_LEVEL: 'silent',
        PATH: process.env.PATH,
      });
      if (result.exitCode !== 0)
        throw new Error(`night ${night} exited ${result.exitCode}: ${result.stderr}`);
      await expireOldRuns(redis, PREFIX, KEPT_RUNS);
      kinds = await memoryByKind(redis);
      const summed = [...kinds.values()].reduce((sum, k) => sum + k.bytes, 0);
      const used = (await usedMemory(redis)) - empty;
      console.log(`| ${night} | ${(used / products).toFixed(0)} | ${(summed / products).toFixed(0)} |`);
      if (night === NIGHTS)
        console.log(
          (await redis.info('memory'))
            .split('\r\n')
            .filter((l) => /^(used_memory_(dataset|overhead|scripts|vm)|mem_clients|used_memory:)/.test(l))
            .join(' '),
        );
    }
    const steady = ((await usedMemory(redis)) - empty) / products;
    const verdict = steady <= GOAL_BYTES_PER_PRODUCT ? 'PASS' : 'FALL SHORT';
    console.log(
      `steady state (used_memory − empty): ${steady.toFixed(0)} B/product, goal ≤ ${GOAL_BYTES_PER_PRODUCT}: ${verdict}`,
    );
    console.log(`\nafter night ${NIGHTS}, by kind of key (MEMORY USAGE, B/product):`);
    for (const [kind, { keys, bytes }] of [...kinds].sort((a, b) => b[1].bytes - a[1].bytes)) {
      console.log(`  ${kind.padEnd(40)} ${String(keys).padStart(4)} keys ${(bytes / products).toFixed(1)}`);
    }
  } finally {
    await sandbox.close();
    redis.disconnect();
    stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
