import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queueOptions } from '../../../src/queue/queue-options.js';
import { type ChunkJobData, chunkJobId } from '../../../src/runs/chunk-job.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import { RunStore } from '../../../src/runs/run-store.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { TEST_REDIS_URL } from '../support/redis-prefix.js';
import { useWebhookReceiver } from '../support/webhook-receiver.js';
import { KEY_A, runDone, useFailureRig } from './support/rig.js';

/** Two chunks of 100 rows and one of 50 (DEFAULT_CHUNK_SIZE). */
const ROWS = 250;
/** The waits' seam: a short job lock and stall check, so an idle run is looked at within a second. */
const WAITS = { CATALOG_SYNC_LOCK_MS: '600', CATALOG_SYNC_STALL_CHECK_MS: '300' };
const LOST = /^not sent: its queued chunk was lost from Redis \(.*\); a re-run of the source sends it$/;

/**
 * Every chunk of a run lost from Redis (a failover, a partial flush) before any of them read the
 * seller's product list: the run's end used to wait for that read, which nothing would ever make,
 * so the run stayed `queued` for good although the look settled every row.
 */
describe('a run all of whose chunks Redis lost before one read the product list', () => {
  const rig = useFailureRig();
  const hook = useWebhookReceiver();
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

  const env = () => rig.env(KEY_A, { ...WAITS, CATALOG_SYNC_WEBHOOK_HOSTS: new URL(hook.url).host });

  it('ends: every row failed, not sent; done with those counts in status and `ended`; nothing sent', {
    timeout: 60_000,
  }, async () => {
    // Queued with no worker: no chunk has run, none read the list.
    const source = await rig.csv('catalog.csv', catalogRows(ROWS));
    const imported = await rig.cli(
      ['import', source, '--notify', hook.url, '--missing', 'quantity=0'],
      env(),
    );
    expect(imported.code, imported.stderr).toBe(0);
    const runId = runIdOf(imported.stdout);
    const run = await runs.get(runId);
    expect(run).toMatchObject({ state: 'queued', produced: true, total: ROWS, snapshotReady: false });
    const queue = new Queue<ChunkJobData>(
      keys.sellerQueue(run?.sellerRef ?? ''),
      queueOptions(redis, rig.prefix),
    );
    try {
      // Redis loses every one (BullMQ's own removal: each job, its data and its place in the
      // queue): its three chunks, and the empty one after them that decides a `--missing` run's guard.
      const jobs = await queue.getJobs(['wait', 'delayed', 'prioritized', 'active']);
      expect(jobs.map((job) => job.id).sort()).toEqual([0, 1, 2, 3].map((chunk) => chunkJobId(runId, chunk)));
      for (const job of jobs) expect(await queue.remove(job.id ?? '')).toBe(1);
    } finally {
      await queue.close();
    }

    rig.spawn(['worker'], env());
    const status = await runDone(rig, runId, 20_000);

    expect(status).toMatchObject({ state: 'done', total: ROWS, settled: ROWS });
    expect(status.counts).toMatchObject({ created: 0, updated: 0, failed: ROWS });
    let lost = 0;
    for await (const outcome of runs.outcomes(runId)) {
      expect(outcome).toMatchObject({ action: 'skipped', status: 'failed' });
      if (LOST.test(outcome.error ?? '')) lost++;
    }
    expect(lost).toBe(ROWS);
    await expect.poll(() => hook.posts.map((post) => post.body.event)).toEqual(['ended']);
    expect(hook.posts[0]?.body).toMatchObject({
      runId,
      state: 'done',
      counts: { created: 0, updated: 0, failed: ROWS },
    });
    // `--missing` deactivated nothing, and `status` says why.
    const shown = await rig.cli(['status', runId], env());
    expect(shown.stdout).toContain(
      "deactivate none: --missing not applied, the seller's products were never read: every chunk of the run was lost from Redis before one read them",
    );
    // Nothing was sent: no write, and not even the list was read.
    expect(rig.sandbox.stats()).toMatchObject({ total: 0, writesApplied: 0 });
    expect(rig.sandbox.products('seller-a')).toHaveLength(0);
  });
});
