import { Queue, RateLimitError } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunContexts, type WorkerDeps } from '../../../src/chunks/run-context.js';
import type { ProductUpsert } from '../../../src/interfaces.js';
import { PlanStore } from '../../../src/plan/plan-store.js';
import { makeChunkProcessor } from '../../../src/queue/chunk-processor.js';
import { unsentReason } from '../../../src/queue/ending-early.js';
import type { ChunkJobData } from '../../../src/runs/chunk-job.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import { RunStore } from '../../../src/runs/run-store.js';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../../src/sandbox/index.js';
import { sellerRef } from '../../../src/sellers/seller-ref.js';
import { runSpec } from '../../support/run-record.js';
import { expectExactCatalog } from '../failures/support/exact-catalog.js';
import { catalogRows } from '../support/catalog.js';
import { requestCounts } from '../support/pipeline.js';
import { removePrefix, TEST_REDIS_URL, uniquePrefix } from '../support/redis-prefix.js';
import { testWorkerDeps } from '../support/worker-deps.js';

const KEY = 'sk_stalled';
const SELLER = 'seller-stalled';

/** One worker process as the chunk processor sees it: its own run contexts, limiter and caches. */
function workerProcess(redis: Redis, keys: RedisKeys): { deps: WorkerDeps; contexts: RunContexts } {
  // The sandbox listens on loopback, at a port of its own.
  const deps = testWorkerDeps(redis, keys, { SELLER_API_KEY: KEY, CATALOG_SYNC_API_HOSTS: '127.0.0.1' });
  return { deps, contexts: new RunContexts(deps) };
}

const upserts = (count: number): ProductUpsert[] =>
  catalogRows(count).map((row, i) => ({
    kind: 'upsert',
    row: i + 1,
    line: i + 2,
    key: row.sku,
    fields: { sku: row.sku, name: row.name, price: Number(row.price) },
  }));

/** A chunk taken again after its worker stopped holding it (killed): it may have sent some rows. */
const stalled = (runId: string, rows: ProductUpsert[]) =>
  ({ attemptsStarted: 2, attemptsMade: 0, stalledCounter: 1, data: { runId, chunk: 0, rows } }) as never;
/** A chunk taken again after it was put back behind an earlier run (run-order.ts): it sent nothing. */
const putBack = (runId: string, rows: ProductUpsert[]) =>
  ({ attemptsStarted: 2, attemptsMade: 0, stalledCounter: 0, data: { runId, chunk: 1, rows } }) as never;

describe('the chunk processor, against the sandbox over HTTP and a real Redis', () => {
  let sandbox: Sandbox | undefined;
  let redis: Redis;
  let queue: Queue<ChunkJobData>;
  let prefix: string;
  let keys: RedisKeys;
  let runs: RunStore;

  beforeEach(async () => {
    prefix = uniquePrefix();
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    keys = new RedisKeys(prefix);
    runs = new RunStore(redis, keys);
    queue = new Queue<ChunkJobData>('chunk-test', { connection: redis, prefix });
  });
  afterEach(async () => {
    await queue.close();
    await redis.quit();
    await sandbox?.close();
    await removePrefix(prefix);
  });

  /** A sandbox with `options` and a run of `rows` all read from the source; resolves to the chunk's job. */
  async function chunkOf(rows: ProductUpsert[], options: SandboxOptions = {}) {
    const api = await startSandbox({ keys: [{ key: KEY, seller: SELLER }], ...options });
    sandbox = api;
    const run = await runs.create(
      runSpec({ sellerRef: sellerRef(api.baseUrl, KEY), baseUrl: api.baseUrl, allowInsecure: true }),
    );
    await runs.markProduced(run.id, rows.length);
    return { api, runId: run.id, job: { data: { runId: run.id, chunk: 0, rows } } as never };
  }

  it('skips the rows of a chunk tried again that are settled already: no request for them', async () => {
    const rows = upserts(10);
    const { api, runId, job } = await chunkOf(rows);
    await runs.settle(
      runId,
      rows.slice(0, 6).map((row) => ({
        row: row.row,
        key: row.key,
        action: 'create',
        productId: null,
        status: 'ok',
        error: '',
      })),
    );

    const worker = workerProcess(redis, keys);
    await makeChunkProcessor(worker.deps, worker.contexts, queue)(job);

    expect(requestCounts(api.stats()).creates).toBe(4);
    expect(await runs.get(runId)).toMatchObject({ state: 'done', settled: 10 });
  });

  it('a chunk of a run an earlier version ended at once (its source broke) sends nothing: its rows are reported not sent; taken again after its worker died, left as they are', async () => {
    const rows = upserts(10);
    const { api, runId } = await chunkOf(rows);
    // What the producer did when the source broke half way, before runs ended once settled.
    await runs.finish(runId, Date.now(), { aborted: true });
    const worker = workerProcess(redis, keys);
    const process = makeChunkProcessor(worker.deps, worker.contexts, queue);

    // Taken again after its worker died: it may have sent some rows, so it says nothing of them.
    await process(stalled(runId, rows.slice(0, 5)));
    expect((await runs.get(runId))?.settled).toBe(0);
    // Taken a second time after it was put back behind an earlier run: it had sent nothing.
    await process(putBack(runId, rows.slice(5)));

    expect(api.stats().total).toBe(0);
    const run = await runs.get(runId);
    expect(run).toMatchObject({ state: 'done', aborted: true, settled: 5 });
    const outcomes = [];
    for await (const outcome of runs.outcomes(runId)) outcomes.push(outcome);
    expect(
      outcomes.filter((o) => o.row !== null && o.row > 5).map((o) => [o.action, o.status, o.error]),
    ).toEqual(
      Array(5).fill(['skipped', 'failed', 'not sent: the source broke before its turn (run it again)']),
    );
  });

  it('a run whose source broke is not over while a chunk of it is under way: a chunk that sent nothing settles its rows not sent, the last one ends it', async () => {
    const rows = upserts(10);
    const { api, runId } = await chunkOf(rows);
    // What the producer does when the source breaks half way (unsent-rows.ts), its queue empty.
    await runs.markEndingEarly(runId, 'the feed dropped');
    const worker = workerProcess(redis, keys);
    const process = makeChunkProcessor(worker.deps, worker.contexts, queue);

    await process(putBack(runId, rows.slice(0, 5)));
    expect(api.stats().total).toBe(0);
    expect(await runs.get(runId)).toMatchObject({ state: 'queued', aborted: false, settled: 5 });
    // Taken again after its worker died (it may have sent some): it goes on, each row's outcome true.
    await process(stalled(runId, rows.slice(5)));

    expect(requestCounts(api.stats()).creates).toBe(5);
    const run = await runs.get(runId);
    expect(run).toMatchObject({ state: 'done', aborted: true, endedEarly: 'the feed dropped', settled: 10 });
    const outcomes = [];
    for await (const outcome of runs.outcomes(runId)) outcomes.push(outcome);
    expect(outcomes.map((o) => [o.row, o.action, o.status])).toEqual(
      rows.map((row) => [row.row, row.row <= 5 ? 'skipped' : 'create', row.row <= 5 ? 'failed' : 'ok']),
    );
  });

  it('a guarded run whose source broke ends once its last chunk settles: the rows it planned settle not sent', async () => {
    const rows = upserts(10);
    const { api, runId } = await chunkOf(rows);
    // Its first chunk planned (a guard decides once every row is), then the source broke.
    await new PlanStore(redis, keys).record(
      runId,
      rows
        .slice(0, 5)
        .map((upsert) => ({ upsert, action: 'create', productId: null, fields: upsert.fields })),
    );
    await runs.markEndingEarly(runId, 'the feed dropped');
    const worker = workerProcess(redis, keys);

    await makeChunkProcessor(worker.deps, worker.contexts, queue)(putBack(runId, rows.slice(5)));

    expect(api.stats().total).toBe(0);
    expect(await runs.get(runId)).toMatchObject({ state: 'done', aborted: true, settled: 10 });
    const outcomes = [];
    for await (const outcome of runs.outcomes(runId)) outcomes.push(outcome);
    expect(outcomes.map((o) => [o.row, o.key, o.action, o.error])).toEqual(
      rows.map((row) => [
        row.row,
        row.key,
        'skipped',
        'not sent: the source broke before its turn (run it again)',
      ]),
    );
  });

  it('a run whose reader died, ended by a re-import: a chunk put back since settles its rows not sent, saying so', async () => {
    const rows = upserts(10);
    const { api, runId } = await chunkOf(rows);
    // What a re-import does to a run whose reader died half way (claim-source.ts), a chunk of it
    // under way then: the chunk is put back behind an earlier run, and taken again.
    await runs.markEndingEarly(runId, 'its process stopped before the source was read to the end', {
      unsentReason: unsentReason(false, 'reader-stopped'),
    });
    const worker = workerProcess(redis, keys);

    await makeChunkProcessor(worker.deps, worker.contexts, queue)(putBack(runId, rows));

    expect(api.stats().total).toBe(0);
    expect(await runs.get(runId)).toMatchObject({ state: 'done', aborted: true, settled: 10 });
    const outcomes = [];
    for await (const outcome of runs.outcomes(runId)) outcomes.push(outcome);
    expect(new Set(outcomes.map((o) => o.error))).toEqual(
      new Set([
        'not sent: the process reading the source stopped before its turn (a later run reads it anew)',
      ]),
    );
  });

  it('on a 429 pauses the seller until the reset and puts the job back without spending an attempt', async () => {
    const { api, runId, job } = await chunkOf(upserts(10), { dailyLimit: 4 });

    const worker = workerProcess(redis, keys);
    const processed = makeChunkProcessor(worker.deps, worker.contexts, queue)(job);

    await expect(processed).rejects.toBeInstanceOf(RateLimitError);
    const ref = sellerRef(api.baseUrl, KEY);
    expect(Number(await redis.get(keys.pausedUntil(ref)))).toBeGreaterThan(Date.now());
    const run = await runs.get(runId);
    expect(run?.settled).toBeLessThan(10);
    expect(run?.state).not.toBe('done');
  });

  it('when a chunk is handed out again while its first worker still lives, creates each product once', {
    timeout: 30_000,
  }, async () => {
    const rows = upserts(20);
    // Answers slow enough that both workers hold the same rows at once.
    const { api, runId, job } = await chunkOf(rows, { latencyMs: 25 });

    const first = workerProcess(redis, keys);
    const second = workerProcess(redis, keys);
    await Promise.all([
      makeChunkProcessor(first.deps, first.contexts, queue)(job),
      makeChunkProcessor(second.deps, second.contexts, queue)(job),
    ]);

    expectExactCatalog(api.products(SELLER), catalogRows(20));
    expect(requestCounts(api.stats()).creates, 'POSTs sent').toBe(20);
    const done = await runs.get(runId);
    expect(done).toMatchObject({ state: 'done', settled: 20 });
    expect(done?.counts['action:create']).toBe(20);
  });
});
