/**
 * Issue 12, the list read of an unchanged re-run: the time of `RemoteIndex.load` (every page of
 * `GET /products` written into the run's index) against fetching the same pages raw with the same
 * client, in one run, alternating; the Redis commands per page; the bytes per product of the
 * index; the peak RSS growth of the load at two catalog sizes (flat: it must not grow with N).
 *
 *   npm run build && REDIS_URL=redis://127.0.0.1:6521 node --expose-gc dist/bench/list-read.js [products] [latencyMs]
 *
 * Defaults: 20,000 products, 2 ms sandbox latency, 100 products per page. The sandbox runs as a
 * process of its own, so this process's RSS is the client's. Uses a unique prefix, removed after.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { RedisKeys } from '../src/runs/keys.js';
import { SellerApiClient } from '../src/seller-api/index.js';
import { sellerRef } from '../src/sellers/seller-ref.js';
import { compactFields } from '../src/sync/compact-value.js';
import { CreateClaims } from '../src/sync/create-claims.js';
import { IdMap } from '../src/sync/id-map.js';
import { indexedFieldsOf } from '../src/sync/indexed-fields.js';
import { RemoteIndex } from '../src/sync/remote-index.js';
import { startSandboxProcess } from './big-import/processes.js';
import { peakRssGrowth } from './list-read/memory.js';
import { generateRows } from './sync/catalog.js';
import { removeKeys } from './sync/redis-info.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PRODUCTS = Number(process.argv[2] ?? 20_000);
const LATENCY_MS = Number(process.argv[3] ?? 2);
const ROUNDS = 5;
const GOAL_RATIO = 1.2;
const SENT_FIELDS = ['sku', 'name', 'price', 'quantity', 'description'];

const prefix = `bench-list-${randomBytes(4).toString('hex')}`;
const keys = new RedisKeys(prefix);
const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
const apiKey = `bench-${randomBytes(8).toString('hex')}`;
const sandbox = await startSandboxProcess(apiKey, 'bench-seller');

async function seam(path: string, body: unknown): Promise<void> {
  const answer = await fetch(new URL(`/__sandbox${path}`, sandbox.baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!answer.ok) throw new Error(`sandbox seam ${path}: ${answer.status} ${await answer.text()}`);
}

/** Seeds `count` products of the generated catalog (sku shown) under a seller of their own. */
async function seed(seller: string, count: number): Promise<void> {
  await seam('/keys', { key: `${apiKey}-${seller}`, seller });
  const rows = generateRows(count);
  for (let start = 0; start < rows.length; start += 5_000) {
    await seam(`/products?seller=${seller}`, rows.slice(start, start + 5_000));
  }
}

function clientOf(seller: string): SellerApiClient {
  return new SellerApiClient({ baseUrl: sandbox.baseUrl, apiKey: `${apiKey}-${seller}` });
}

function indexOf(seller: string, runId: string): RemoteIndex {
  const ref = sellerRef(sandbox.baseUrl, seller);
  const run = { fields: null, matchBy: 'sku', sentFields: SENT_FIELDS, missing: null };
  const { only, leaveOut } = indexedFieldsOf(run);
  const idMap = new IdMap(redis, keys, ref);
  const claims = new CreateClaims(redis, keys, ref);
  return new RemoteIndex(redis, keys, runId, 'sku', only, idMap, claims, leaveOut);
}

interface Timing {
  ms: number;
  /** This process, user and system. */
  cpuMs: number;
  /** The Redis server's, user and system (INFO cpu). */
  redisCpuMs: number;
}

async function redisCpuMs(): Promise<number> {
  const info = await redis.info('cpu');
  const seconds = (field: string) => Number(new RegExp(`${field}:([\\d.]+)`).exec(info)?.[1] ?? 0);
  return (seconds('used_cpu_user') + seconds('used_cpu_sys')) * 1000;
}

async function timed(work: () => Promise<unknown>): Promise<Timing> {
  const redisBefore = await redisCpuMs();
  const start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  await work();
  const used = process.cpuUsage(cpu);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  return { ms, cpuMs: (used.user + used.system) / 1000, redisCpuMs: (await redisCpuMs()) - redisBefore };
}

async function fetchRaw(client: SellerApiClient): Promise<number> {
  let pages = 0;
  for await (const _page of client.listProducts()) pages++;
  return pages;
}

async function commandsProcessed(): Promise<number> {
  return Number(/total_commands_processed:(\d+)/.exec(await redis.info('stats'))?.[1] ?? 0);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const line = (times: Timing[]) =>
  `median ${median(times.map((t) => t.ms)).toFixed(0)} ms (${times.map((t) => t.ms.toFixed(0)).join(', ')}), ` +
  `CPU median ${median(times.map((t) => t.cpuMs)).toFixed(0)} ms, Redis CPU ${median(times.map((t) => t.redisCpuMs)).toFixed(0)} ms`;

/** The bytes per product of the index as entries were before issue 12: `{id, values}`, timestamps kept. */
async function bytesPerProductBefore(client: SellerApiClient, hash: string): Promise<number> {
  let count = 0;
  for await (const page of client.listProducts()) {
    const pairs = page.flatMap((product) => {
      const { id: _id, ...fields } = product.fields;
      return [product.id, JSON.stringify({ id: product.id, values: compactFields(fields) })];
    });
    await redis.hset(hash, ...pairs);
    count += page.length;
  }
  return (await memoryUsage(hash)) / count;
}

async function memoryUsage(hash: string): Promise<number> {
  return Number(await redis.call('MEMORY', 'USAGE', hash, 'SAMPLES', '0'));
}

try {
  await seam('/faults', { latencyMs: LATENCY_MS });
  const small = Math.max(100, Math.round(PRODUCTS / 4));
  await seed('large', PRODUCTS);
  await seed('small', small);
  const client = clientOf('large');
  const pages = await fetchRaw(client); // warms the connection and the sandbox
  const raw: Timing[] = [];
  const load: Timing[] = [];
  let commands = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    raw.push(await timed(() => fetchRaw(client)));
    const before = await commandsProcessed();
    load.push(await timed(() => indexOf('large', `run-${round}`).load(client.listProducts())));
    commands = (await commandsProcessed()) - before;
  }
  const ratio = median(load.map((t) => t.ms)) / median(raw.map((t) => t.ms));
  const cpuRatio = median(load.map((t) => t.cpuMs)) / median(raw.map((t) => t.cpuMs));
  const after = (await memoryUsage(keys.products('run-1'))) / PRODUCTS;
  const before = await bytesPerProductBefore(client, `${prefix}:entries-before`);
  const smallRss = await peakRssGrowth(() =>
    indexOf('small', 'rss-small').load(clientOf('small').listProducts()),
  );
  const largeRss = await peakRssGrowth(() => indexOf('large', 'rss-large').load(client.listProducts()));
  const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
  console.log(
    `list read, unchanged re-run: ${PRODUCTS} products, ${pages} pages, sandbox latency ${LATENCY_MS} ms`,
  );
  console.log(`  raw fetch of the pages:   ${line(raw)}`);
  console.log(`  list read into the index: ${line(load)}`);
  console.log(
    `  ratio ${ratio.toFixed(2)}x (goal <= ${GOAL_RATIO}x): ${ratio <= GOAL_RATIO ? 'PASS' : 'FALL SHORT'}`,
  );
  console.log(`  CPU of this process: ${cpuRatio.toFixed(2)}x the raw fetch's`);
  console.log(
    `  Redis commands per page: ${(commands / pages).toFixed(1)} (as Redis counts them: MULTI, EXEC and the HSETNX of the script included)`,
  );
  console.log(
    `  index bytes per product (MEMORY USAGE / products): ${after.toFixed(0)} (entries as before issue 12: ${before.toFixed(0)})`,
  );
  console.log(
    `  peak RSS growth of the load: ${mib(smallRss.bytes)} MiB at ${small} products, ${mib(largeRss.bytes)} MiB at ${PRODUCTS}; ` +
      `heap held after it (after GC): ${mib(smallRss.retainedHeap)} and ${mib(largeRss.retainedHeap)} MiB`,
  );
} finally {
  await removeKeys(REDIS_URL, prefix);
  redis.disconnect();
  await sandbox.stop();
}
