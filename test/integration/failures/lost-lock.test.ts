import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProductUpsert } from '../../../src/interfaces.js';
import { SellerWorkers } from '../../../src/queue/seller-workers.js';
import { addChunk, type ChunkJobData, chunkJobId } from '../../../src/runs/chunk-job.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import { RunStore } from '../../../src/runs/run-store.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { sellerRef } from '../../../src/sellers/seller-ref.js';
import { runSpec } from '../../support/run-record.js';
import { type CatalogRow, catalogRows, priceNumber } from '../support/catalog.js';
import { removePrefix, TEST_REDIS_URL, uniquePrefix } from '../support/redis-prefix.js';
import { until } from '../support/until.js';
import { testWorkerDeps } from '../support/worker-deps.js';
import { expectExactCatalog } from './support/exact-catalog.js';

const KEY = 'sk_lost_lock';
const SELLER = 'seller-lost-lock';
/** The chunk's rows: two turns of the worker's four requests at once (testWorkerDeps' limiter). */
const ROWS = 8;
const IN_FLIGHT = 4;
/** A short job lock, so that the first worker's runs out within the test. */
const LOCK_MS = 600;

/** A promise and its resolve: a gate for the requests the sandbox holds. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const upserts = (rows: CatalogRow[]): ProductUpsert[] =>
  rows.map((row, i) => ({
    kind: 'upsert',
    row: i + 1,
    line: i + 2,
    key: row.sku,
    fields: { sku: row.sku, name: row.name, price: priceNumber(row.price) },
  }));

/**
 * A worker whose lock on a chunk ran out while it still ran it (its event loop blocked, Redis out
 * of its reach for longer than the lock, a long GC pause: here its renewal stopped), and another
 * worker that takes the chunk. Each row's PUT is a request of the seller's day: sent once.
 */
describe('when a worker loses its lock on a chunk it still runs', () => {
  let prefix: string;
  let keys: RedisKeys;
  let redis: Redis;
  let connections: Redis[];
  let sandbox: Sandbox | undefined;
  let workers: SellerWorkers[];
  let queue: Queue<ChunkJobData> | undefined;

  beforeEach(() => {
    prefix = uniquePrefix();
    keys = new RedisKeys(prefix);
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    connections = [redis];
    workers = [];
  });
  afterEach(async () => {
    await Promise.all(workers.map((workers) => workers.close()));
    await queue?.close();
    await Promise.all(connections.map((connection) => connection.quit()));
    await sandbox?.close();
    await removePrefix(prefix);
  });

  /** One worker process: its own Redis connection, run contexts, limiter and chunk attempts. */
  function workerProcess(
    options: ConstructorParameters<typeof SellerWorkers>[1],
    hooks: { onRowsBegun?: () => void } = {},
  ): SellerWorkers {
    const connection = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    connections.push(connection);
    const env = { SELLER_API_KEY: KEY, CATALOG_SYNC_API_HOSTS: '127.0.0.1' };
    const deps = { ...testWorkerDeps(connection, keys, env), ...hooks };
    const process = new SellerWorkers(deps, options);
    workers.push(process);
    return process;
  }

  it('it sends none of the chunk’s rows after its requests in flight; the worker that takes the chunk sends each row left once', {
    timeout: 30_000,
  }, async () => {
    // The sandbox holds each PUT until its gate opens: the first turn's while the lock runs out,
    // the next ones until the chunk's second worker has begun its rows.
    const first = gate();
    const next = gate();
    let current = first;
    let held = 0;
    const api = await startSandbox({
      keys: [{ key: KEY, seller: SELLER }],
      hold: (request) => {
        if (request.method !== 'PUT') return undefined;
        held += 1;
        return current.opened;
      },
    });
    sandbox = api;
    const before = catalogRows(ROWS);
    api.seedProducts(
      SELLER,
      before.map((row) => ({ sku: row.sku, name: row.name, price: priceNumber(row.price) })),
    );
    // The same products, repriced: each row is one PUT.
    const rows = before.map((row) => ({ ...row, price: (priceNumber(row.price) + 1.25).toFixed(2) }));
    const ref = sellerRef(api.baseUrl, KEY);
    const runs = new RunStore(redis, keys);
    const run = await runs.create(runSpec({ sellerRef: ref, baseUrl: api.baseUrl, allowInsecure: true }));
    await runs.markProduced(run.id, ROWS);
    const seller = { ref, baseUrl: api.baseUrl, queueName: keys.sellerQueue(ref) };
    queue = new Queue<ChunkJobData>(seller.queueName, { connection: redis, prefix });
    await addChunk(queue, { runId: run.id, chunk: 0, rows: upserts(rows) });
    const lockKey = `${prefix}:${seller.queueName}:${chunkJobId(run.id, 0)}:lock`;

    // Worker A takes the chunk, and its lock is never renewed. Its stall check may put the chunk back
    // once the lock ran out; paused then, A takes no job, and B does.
    const a = workerProcess({ prefix, chunksAtOnce: 1, lockDurationMs: LOCK_MS, lockRenewMs: 60_000 });
    a.serve(seller);
    await until('A’s first requests in flight', () => held === IN_FLIGHT);
    await until('A’s lock run out', async () => (await redis.exists(lockKey)) === 0);
    await a.pause();
    // A's requests in flight are answered: their rows settle (nobody else holds the chunk yet).
    current = next;
    first.open();
    await until('A’s rows in flight settled', async () => (await runs.get(run.id))?.settled === IN_FLIGHT);

    // The chunk is handed out again (by A's stall check or B's), to B.
    const b = workerProcess(
      { prefix, lockDurationMs: LOCK_MS, stalledIntervalMs: 100 },
      { onRowsBegun: next.open },
    );
    b.serve(seller);
    await until('the run done', async () => (await runs.get(run.id))?.state === 'done');

    const puts = api.requests().filter((request) => request.method === 'PUT');
    const perProduct = new Map<string, number>();
    for (const put of puts)
      perProduct.set(String(put.query.id), (perProduct.get(String(put.query.id)) ?? 0) + 1);
    expect(
      [...perProduct.values()].filter((count) => count > 1),
      'products sent more than once',
    ).toEqual([]);
    expect(puts, 'PUTs sent').toHaveLength(ROWS);
    expectExactCatalog(api.products(SELLER), rows);
    const outcomes = [];
    for await (const outcome of runs.outcomes(run.id)) outcomes.push(outcome);
    expect(outcomes.map((o) => [o.row, o.action, o.status])).toEqual(
      rows.map((_, i) => [i + 1, 'update', 'ok']),
    );
    expect(await runs.get(run.id)).toMatchObject({ settled: ROWS, counts: { 'action:update': ROWS } });
    // No process died: A, once it found its lock lost, added what it had counted. The run's counts
    // are every request the API served, and said exact (B marked them `at least` as it took the chunk).
    const served = api.requests().length;
    await until('A’s counts added', async () => (await runs.get(run.id))?.requests === served);
    await until('the counts said exact again', async () => !(await runs.get(run.id))?.requestsAtLeast, 3_000);
    expect(await runs.get(run.id)).toMatchObject({ requests: served, writes: ROWS });
  });
});
