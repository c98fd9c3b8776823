import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { settleLostRows } from '../../../src/queue/lost-chunks.js';
import { queueOptions } from '../../../src/queue/queue-options.js';
import type { ChunkJobData } from '../../../src/runs/chunk-job.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import { RunStore } from '../../../src/runs/run-store.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { requestCounts } from '../support/pipeline.js';
import { TEST_REDIS_URL } from '../support/redis-prefix.js';
import { expectExactCatalog } from './support/exact-catalog.js';
import { SELLER_A, useFailureRig } from './support/rig.js';

const ROWS = 5;
const LOST = /^not sent: its queued chunk was lost from Redis \(.*\); a re-run of the source sends it$/;

/**
 * A chunk whose job Redis lost (a failover, a partial flush) while one of its creates was under way:
 * its POST claimed the row's key first (sync/create-claims.ts), and the claim stays until the
 * product is recorded. The look at the idle run (lost-chunks.ts; called here directly, the test's
 * seam for its waits) must not say "not sent" of a create that may have reached the API: while the
 * claim lives its worker is still on it, and once it is no longer renewed the rows say the create
 * may have been sent. A re-run then creates no second product.
 */
describe('a run whose chunk Redis lost while one of its creates was under way', () => {
  // The API does not list `sku`: only the claim's look-up can find the create it applied.
  const rig = useFailureRig(() => ({ hideFields: ['sku'] }));
  let redis: Redis;
  let keys: RedisKeys;
  let runs: RunStore;
  beforeEach(() => {
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    keys = new RedisKeys(rig.prefix);
    runs = new RunStore(redis, keys);
  });
  afterEach(async () => {
    await redis.quit();
  });

  it('waits while the claim lives, then says "may have been sent"; a re-run makes no duplicate', {
    timeout: 60_000,
  }, async () => {
    const rows = catalogRows(ROWS);
    const source = await rig.csv('catalog.csv', rows);
    // Queued with no worker; then, as a worker would have: SKU-3's create claimed and applied by the
    // API, and the chunk's job lost before its row was settled.
    const imported = await rig.cli(['import', source]);
    expect(imported.code, imported.stderr).toBe(0);
    const runId = runIdOf(imported.stdout);
    const run = await runs.get(runId);
    const sellerRef = run?.sellerRef ?? '';
    const queue = new Queue<ChunkJobData>(keys.sellerQueue(sellerRef), queueOptions(redis, rig.prefix));
    try {
      for (const job of await queue.getJobs(['wait', 'delayed', 'prioritized', 'active']))
        expect(await queue.remove(job.id ?? '')).toBe(1);
    } finally {
      await queue.close();
    }
    const applied = rows[2];
    if (!applied) throw new Error('no row 3');
    rig.sandbox.seedProducts(SELLER_A, [
      { sku: applied.sku, name: applied.name, price: Number(applied.price) },
    ]);
    const claim = (expiresAt: number) =>
      redis.hset(keys.pendingCreates(sellerRef), applied.sku, `${runId}|a-token|${expiresAt}`);
    const deps = { redis, keys, runs, prefix: rig.prefix };

    // Its worker still renews the claim: the look leaves the run to it.
    await claim(Date.now() + 60_000);
    expect(await settleLostRows(deps, runId)).toBe(0);
    expect(await runs.get(runId)).toMatchObject({ state: 'queued', settled: 0 });

    // No longer renewed (its worker died): the rows are settled, and say the create may have gone.
    await claim(Date.now() - 1000);
    expect(await settleLostRows(deps, runId)).toBe(ROWS);
    expect(await runs.get(runId)).toMatchObject({ state: 'done', settled: ROWS });
    for await (const outcome of runs.outcomes(runId)) {
      expect(outcome).toMatchObject({ action: 'skipped', status: 'failed' });
      expect(outcome.error).not.toMatch(LOST);
      expect(outcome.error).toBe(
        `not sent, unless it is the row of sku "${applied.sku}", whose create was under way when its chunk was lost from Redis (a failover or a flush dropped its job): that may have been sent; a re-run of the source sends what did not go, and looks those keys up before creating them`,
      );
    }

    // A re-run finds the product the lost create made, and creates the others once.
    const again = await rig.cli(['run', source]);
    expect(again.code, again.stderr).toBe(0);
    expectExactCatalog(rig.sandbox.products(SELLER_A), rows);
    expect(requestCounts(rig.sandbox.stats()).creates, 'POSTs sent').toBe(ROWS - 1);
  });
});
