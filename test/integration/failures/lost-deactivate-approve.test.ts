import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { settleLostRows } from '../../../src/queue/lost-chunks.js';
import { LOST_DEACTIVATION, LOST_DEACTIVATION_MAYBE_SENT } from '../../../src/queue/lost-deactivations.js';
import { queueOptions } from '../../../src/queue/queue-options.js';
import { type ChunkJobData, chunkJobId } from '../../../src/runs/chunk-job.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import { RunStore } from '../../../src/runs/run-store.js';
import { gate } from '../../support/gate.js';
import { runSpec } from '../../support/run-record.js';
import { type CatalogRow, catalogRows } from '../support/catalog.js';
import { type CliResult, runIdOf } from '../support/cli.js';
import { TEST_REDIS_URL } from '../support/redis-prefix.js';
import { eventually, useFailureRig } from './support/rig.js';

/** Two jobs of 100 and one of 50 (DEFAULT_CHUNK_SIZE): two are taken at once, the third waits. */
const ROWS = 250;
/**
 * Products gone from the source in more `deactivate` jobs than are taken at once: their due list is
 * read 100 at a time (HSCAN), once it is past the size Redis keeps a small hash in (512 here).
 */
const PRODUCTS = 700;
/** The waits' seam: a short job lock and stall check, so an idle run is looked at within a second. */
const WAITS = { CATALOG_SYNC_LOCK_MS: '600', CATALOG_SYNC_STALL_CHECK_MS: '300' };
/** The steps before the loss happen in a moment: waited for up to this (only a guard against a hang). */
const SETUP = { timeoutMs: 30_000 };

/**
 * The `run` or `approve` waiting on a run ends it once it has been idle with rows no job holds
 * (lost-chunk.test.ts). Its `--missing` step's `deactivate` jobs and an approval's `approve` jobs
 * are jobs too: one Redis lost (a failover, a partial flush) left the run `running` for good, its
 * end waiting on deactivations nothing would send, or on approved rows nothing would write.
 */
describe('a run whose queued deactivate or approve job Redis lost', () => {
  /** What a write waits for before the sandbox serves it; none waits unless a test says so. */
  let writes: () => Promise<unknown> | undefined;
  let held = 0;
  const rig = useFailureRig(() => ({
    hold: (request) => {
      if (request.method === 'GET') return undefined;
      held++;
      return writes();
    },
  }));
  let redis: Redis;
  let keys: RedisKeys;
  let runs: RunStore;
  beforeEach(() => {
    writes = () => undefined;
    held = 0;
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    keys = new RedisKeys(rig.prefix);
    runs = new RunStore(redis, keys);
  });
  afterEach(async () => {
    await redis.quit();
  });

  const env = () => rig.env(undefined, WAITS);

  /**
   * Runs `args` with every write held until the waiting job `jobOf(runId)` of the run it writes
   * exists (`runId`: that run, or the first one created since); Redis then loses that job (BullMQ's
   * own removal: the job, its data and its place in the queue), and the writes go on. Resolves to the
   * command's result and the lost job's data.
   */
  async function losingWaitingJob(
    args: string[],
    jobOf: (runId: string) => string,
    runId?: string,
  ): Promise<{ result: CliResult; lost: ChunkJobData }> {
    const writesGate = gate();
    writes = () => writesGate.promise;
    held = 0;
    const earlier = await runs.latestId();
    const running = rig.cli(args, env());
    try {
      const id =
        runId ??
        (await eventually('the run to exist', async () => {
          const latest = await runs.latestId();
          return latest !== earlier ? (latest ?? undefined) : undefined;
        }));
      const sellerRef = (await runs.get(id))?.sellerRef ?? '';
      const queue = new Queue<ChunkJobData>(keys.sellerQueue(sellerRef), queueOptions(redis, rig.prefix));
      try {
        const jobId = jobOf(id);
        await eventually('a write held', () => (held > 0 ? true : undefined), SETUP);
        await eventually(
          `job ${jobId} waiting`,
          async () => ((await queue.getJobState(jobId)) === 'waiting' ? true : undefined),
          SETUP,
        );
        const lost = (await queue.getJob(jobId))?.data;
        expect(await queue.remove(jobId)).toBe(1);
        writesGate.open();
        // Ends by itself once idle (a lock and a stall check, WAITS): not waited on for ever.
        let result: CliResult | undefined;
        void running.then((ended) => {
          result = ended;
        });
        await eventually(`${args[0]} to end`, () => result, SETUP);
        return { result: await running, lost: lost as ChunkJobData };
      } finally {
        await queue.close();
      }
    } finally {
      writesGate.open();
    }
  }

  it('--missing: the lost job’s deactivations failed, not sent; the run ends; a re-run sends them', {
    timeout: 90_000,
  }, async () => {
    const synced = await rig.cli(['run', await rig.csv('all.csv', catalogRows(PRODUCTS))], env());
    expect(synced.code, synced.stderr).toBe(0);
    // One row left: the other products are gone from the source, in `deactivate` jobs of ~100 each.
    const one = await rig.csv('one.csv', catalogRows(1));
    const missing = ['--missing', 'quantity=0', '--max-missing', '100%'];
    const { result, lost } = await losingWaitingJob(['run', one, ...missing], (runId) =>
      chunkJobId(runId, 5, 'deactivate'),
    );
    const lostIds = new Set((lost.deactivate ?? []).map((item) => item.id));
    expect(lostIds.size).toBeGreaterThan(0);

    expect(result.code, result.stderr).toBe(1);
    const runId = runIdOf(result.stdout);
    const run = await runs.get(runId);
    expect(run).toMatchObject({ state: 'done', total: 1, settled: 1 });
    const lines = [];
    for await (const line of runs.outcomes(runId)) if (line.row === null) lines.push(line);
    const failed = lines.filter((line) => line.action === 'deactivate' && line.status === 'failed');
    expect(new Set(failed.map((line) => line.productId))).toEqual(lostIds);
    for (const line of failed)
      expect(line.error).toBe(
        'not sent: its queued deactivation was lost from Redis (a failover or a flush dropped its job); a re-run of the source with --missing sends it',
      );
    const ok = lines.filter((line) => line.action === 'deactivate' && line.status === 'ok');
    expect(ok).toHaveLength(PRODUCTS - 1 - lostIds.size);
    const stillOn = (products: Array<{ quantity?: unknown }>) =>
      products.filter((product) => product.quantity !== 0).length;
    expect(stillOn(rig.sandbox.products('seller-a'))).toBe(1 + failed.length);

    // A re-run of the source sends what the lost job did not.
    const again = await rig.cli(['run', one, ...missing], env());
    expect(again.code, again.stderr).toBe(0);
    expect(stillOn(rig.sandbox.products('seller-a'))).toBe(1);
  });

  it('approve: the lost job’s rows stay held, the run is held again; a second approve sends them', {
    timeout: 90_000,
  }, async () => {
    const rows = catalogRows(ROWS);
    const synced = await rig.cli(['run', await rig.csv('all.csv', rows)], env());
    expect(synced.code, synced.stderr).toBe(0);
    const doubled = (row: CatalogRow) => ({ ...row, price: String(Number(row.price) * 2 + 1) });
    const heldRun = await rig.cli(
      ['run', await rig.csv('doubled.csv', rows.map(doubled)), '--max-price-change', '10%'],
      env(),
    );
    expect(heldRun.code, heldRun.stderr).toBe(5);
    const runId = runIdOf(heldRun.stdout);

    const { result: approved } = await losingWaitingJob(
      ['approve', runId],
      () => chunkJobId(runId, 2, 'approve', 1),
      runId,
    );

    // Held again, with the rows the lost job had: nothing of theirs was sent.
    expect(approved.code, approved.stderr).toBe(5);
    const status = await rig.status(runId);
    expect(status).toMatchObject({ state: 'held', total: ROWS, settled: ROWS });
    expect(status.counts).toMatchObject({ updated: 200, held: 50 });
    const prices = () => rig.sandbox.products('seller-a').map((product) => product.price);
    const newPrices = rows.map((row) => Number(doubled(row).price));
    expect(prices().filter((price) => newPrices.includes(price as number))).toHaveLength(200);

    const again = await rig.cli(['approve', runId], env());
    expect(again.code, again.stderr).toBe(0);
    expect(await rig.status(runId)).toMatchObject({ state: 'done', counts: { updated: ROWS, held: 0 } });
    expect(prices().sort()).toEqual(newPrices.sort());
  });

  it('a lost deactivation its job had claimed says it may have been sent; one unclaimed, not sent', async () => {
    // By hand, the run as its last `deactivate` jobs left it: finalised, two products still due, one
    // claimed by a job whose claim is no longer renewed; no job left in the queue.
    const run = await runs.create(runSpec({ sellerRef: 'ref-lost-claims', missing: { quantity: 0 } }));
    await runs.markProduced(run.id, 0);
    await runs.markSnapshotReady(run.id);
    await redis.hset(keys.run(run.id), { state: 'running', finalising: 'done', deactivationsScanned: 1 });
    await redis.hset(keys.deactivations(run.id), { 'p-claimed': 'SKU-1', 'p-unclaimed': 'SKU-2' });
    await redis.hset(keys.deactivationClaims(run.id), 'p-claimed', `a-job|${Date.now() - 1000}`);

    expect(await settleLostRows({ redis, keys, runs, prefix: rig.prefix }, run.id)).toBe(2);

    expect(await runs.get(run.id)).toMatchObject({ state: 'done' });
    const lines = new Map<string, string | undefined>();
    for await (const line of runs.outcomes(run.id)) lines.set(line.productId ?? '', line.error);
    expect(Object.fromEntries(lines)).toEqual({
      'p-claimed': LOST_DEACTIVATION_MAYBE_SENT,
      'p-unclaimed': LOST_DEACTIVATION,
    });
  });
});
