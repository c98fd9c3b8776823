import { type Job, Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunContexts } from '../../../src/chunks/run-context.js';
import { makeChunkProcessor } from '../../../src/queue/chunk-processor.js';
import type { RunOrder } from '../../../src/queue/run-order.js';
import type { ChunkJobData } from '../../../src/runs/chunk-job.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import { parseCsv } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { bySku, usePipeline } from '../support/pipeline.js';
import { TEST_REDIS_URL } from '../support/redis-prefix.js';
import { testWorkerDeps } from '../support/worker-deps.js';

/**
 * Two runs of one seller, their chunks handed out in an order a test chooses: a worker of this
 * process (the chunk processor a `worker` runs) takes the jobs named, one after the other.
 * A worker begins a run's chunks only once the seller's earlier runs have ended (run-order.ts); the
 * writes of an approval are not held to that order, and the claims must hold whatever overlaps: the
 * order is left out here, so the test can hand the later run's chunks out first.
 */
const IN_ANY_ORDER = { awaitTurn: async () => undefined } as unknown as RunOrder;

describe('guards: a create that another run makes an update before its write', () => {
  const pipeline = usePipeline();
  let redis: Redis;
  let queue: Queue<ChunkJobData>;

  beforeEach(() => {
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
  });
  afterEach(async () => {
    await queue?.close();
    await redis.quit();
  });

  async function importRun(args: string[]): Promise<{ runId: string; sellerRef: string }> {
    const imported = await pipeline.cli(['import', ...args]);
    expect(imported.code).toBe(0);
    const runId = runIdOf(imported.stdout);
    const { sellerRef } = JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout);
    return { runId, sellerRef };
  }

  /** Processes the seller's queued job `id` in this process, then takes it off the queue. */
  function jobTaker(sellerRef: string) {
    const keys = new RedisKeys(pipeline.prefix);
    queue = new Queue<ChunkJobData>(keys.sellerQueue(sellerRef), {
      connection: redis,
      prefix: pipeline.prefix,
    });
    const deps = testWorkerDeps(redis, keys, pipeline.env);
    const process = makeChunkProcessor(deps, new RunContexts(deps), queue, IN_ANY_ORDER);
    return async (id: string) => {
      const job = (await queue.getJob(id)) as Job<ChunkJobData> | undefined;
      if (!job) throw new Error(`no job ${id} in the queue`);
      await process(job);
      await job.remove();
    };
  }

  it('a row planned as a create, whose product another run created before its write, meets --max-price-change there: held, nothing sent', async () => {
    const earlier = await importRun([
      await pipeline.csv('u.csv', [{ sku: 'X', name: 'Widget', price: '2.00' }]),
    ]);
    const guarded = await importRun([
      await pipeline.csv('g.csv', [
        { sku: 'G-1', name: 'Gadget', price: '5.00' },
        { sku: 'X', name: 'Widget', price: '999.00' },
      ]),
      '--max-price-change',
      '50%',
    ]);
    const take = jobTaker(guarded.sellerRef);

    // The guarded run reads the products (none yet) and plans X as a create: nothing held, its
    // writes go to the queue. Then the earlier run creates X at 2.00, before that write is sent.
    await take(`${guarded.runId}-0`);
    expect(pipeline.products()).toEqual([]);
    await take(`${earlier.runId}-0`);
    expect(bySku(pipeline.products()).get('X')).toMatchObject({ price: 2 });
    pipeline.sandbox.resetStats();
    await take(`${guarded.runId}-apply-0`);

    expect(bySku(pipeline.products()).get('X')).toMatchObject({ price: 2 });
    expect(pipeline.sandbox.requests().filter((r) => r.method === 'PUT')).toEqual([]);
    const id = String(pipeline.products().find((p) => p.sku === 'X')?.id);
    const report = parseCsv((await pipeline.cli(['report', guarded.runId])).stdout);
    expect(report.map((line) => `${line.key}:${line.action}:${line.status}`)).toEqual([
      'G-1:create:ok',
      'X:update:held',
    ]);
    expect(report[1]).toMatchObject({
      product_id: id,
      error: 'price 2 → 999 (+49850%) exceeds --max-price-change 50%',
    });
    const status = JSON.parse((await pipeline.cli(['status', guarded.runId, '--json'])).stdout);
    expect(status).toMatchObject({
      state: 'held',
      heldReason: '1 row held: its price moves more than --max-price-change 50%',
    });

    // The operator approves it: the update is sent, as held (no re-plan: X did not change since).
    const approved = await pipeline.cli(['approve', guarded.runId]);

    expect(approved.code).toBe(0);
    expect(bySku(pipeline.products()).get('X')).toMatchObject({ price: 999 });
    const after = parseCsv((await pipeline.cli(['report', guarded.runId])).stdout);
    expect(after[1]).toMatchObject({ action: 'update', product_id: id, status: 'ok', note: '' });
  });
});
