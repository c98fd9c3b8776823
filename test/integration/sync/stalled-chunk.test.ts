import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pLimit from 'p-limit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readTrustRules } from '../../../src/config.js';
import type { ProductUpsert } from '../../../src/interfaces.js';
import { silentLogger } from '../../../src/logger.js';
import type { ChunkJobData } from '../../../src/queue/chunk-job.js';
import { makeChunkProcessor } from '../../../src/queue/chunk-processor.js';
import { RunContexts, type WorkerDeps } from '../../../src/queue/run-context.js';
import { sellerRef } from '../../../src/queue/seller-ref.js';
import { SellerState } from '../../../src/queue/seller-state.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import { RunStore } from '../../../src/runs/run-store.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { runSpec } from '../../support/run-record.js';
import { expectExactCatalog } from '../failures/support/exact-catalog.js';
import { catalogRows } from '../support/catalog.js';
import { requestCounts } from '../support/pipeline.js';
import { removePrefix, TEST_REDIS_URL, uniquePrefix } from '../support/redis-prefix.js';

const KEY = 'sk_stalled';
const SELLER = 'seller-stalled';

/** One worker process as the chunk processor sees it: its own run contexts, limiter and caches. */
function workerProcess(redis: Redis, keys: RedisKeys): { deps: WorkerDeps; contexts: RunContexts } {
  const deps: WorkerDeps = {
    redis,
    keys,
    runs: new RunStore(redis, keys),
    sellers: new SellerState(redis, keys),
    env: { SELLER_API_KEY: KEY },
    // The sandbox listens on loopback, at a port of its own.
    trust: readTrustRules({ CATALOG_SYNC_API_HOSTS: '127.0.0.1' }),
    limiter: pLimit(4),
    logger: silentLogger,
    retry: { retries: 2, baseDelayMs: 5, maxDelayMs: 20 },
    timeoutMs: 5_000,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    random: () => 0.5,
    now: Date.now,
  };
  return { deps, contexts: new RunContexts(deps) };
}

describe('a chunk handed out again while its first worker still lives (stalled, then taken by another)', () => {
  let sandbox: Sandbox;
  let redis: Redis;
  let queue: Queue<ChunkJobData>;
  let prefix: string;

  beforeEach(async () => {
    // Answers slow enough that both workers hold the same rows at once.
    sandbox = await startSandbox({ keys: [{ key: KEY, seller: SELLER }], latencyMs: 25 });
    prefix = uniquePrefix();
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    queue = new Queue<ChunkJobData>('stalled-test', { connection: redis, prefix });
  });
  afterEach(async () => {
    await queue.close();
    await redis.quit();
    await sandbox.close();
    await removePrefix(prefix);
  });

  it('creates each product once, and settles each row once', { timeout: 30_000 }, async () => {
    const keys = new RedisKeys(prefix);
    const runs = new RunStore(redis, keys);
    const rows: ProductUpsert[] = catalogRows(20).map((row, i) => ({
      kind: 'upsert',
      row: i + 1,
      line: i + 2,
      key: row.sku,
      fields: { sku: row.sku, name: row.name, price: Number(row.price) },
    }));
    const run = await runs.create(
      runSpec({ sellerRef: sellerRef(sandbox.baseUrl, KEY), baseUrl: sandbox.baseUrl, allowInsecure: true }),
    );
    await runs.markProduced(run.id, rows.length);
    const job = { data: { runId: run.id, chunk: 0, rows } } as never;

    const first = workerProcess(redis, keys);
    const second = workerProcess(redis, keys);
    await Promise.all([
      makeChunkProcessor(first.deps, first.contexts, queue)(job),
      makeChunkProcessor(second.deps, second.contexts, queue)(job),
    ]);

    expectExactCatalog(sandbox.products(SELLER), catalogRows(20));
    expect(requestCounts(sandbox.stats()).creates, 'POSTs sent').toBe(20);
    const done = await runs.get(run.id);
    expect(done).toMatchObject({ state: 'done', settled: 20 });
    expect(done?.counts['action:create']).toBe(20);
  });
});
