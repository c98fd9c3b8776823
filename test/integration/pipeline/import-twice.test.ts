import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { sellerQueueName } from '../../../src/sellers/seller-ref.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { MAIN_SELLER, usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';

describe('`import` of a source whose run is still queued (no worker running)', () => {
  const pipeline = usePipeline();

  /** The seller's queue and run list, as the workers would find them. */
  async function queued(runId: string) {
    return withRedis(async (redis) => {
      const spec = JSON.parse((await redis.hget(`${pipeline.prefix}:run:${runId}`, 'spec')) ?? '{}');
      const queue = new Queue(sellerQueueName(spec.sellerRef), {
        connection: redis,
        prefix: pipeline.prefix,
      });
      try {
        return {
          jobs: await queue.getJobCountByTypes('wait', 'prioritized', 'delayed', 'active'),
          runs: await redis.zrange(`${pipeline.prefix}:runs`, 0, -1),
        };
      } finally {
        await queue.close();
      }
    });
  }

  it('prints the same run id and does not queue the rows twice', async () => {
    const source = await pipeline.csv('catalog.csv', catalogRows(250));

    const first = await pipeline.cli(['import', source]);
    const second = await pipeline.cli(['import', source]);

    expect([first.code, second.code]).toEqual([0, 0]);
    const runId = runIdOf(first.stdout);
    expect(second.stdout.trim()).toBe(runId);
    expect(second.stderr).toContain(`already queued as run ${runId}`);
    expect(await queued(runId)).toEqual({ jobs: 3, runs: [runId] });
  });

  it('shows the run as queued, with every row read and none settled', async () => {
    const source = await pipeline.csv('catalog.csv', catalogRows(40));
    const runId = runIdOf((await pipeline.cli(['import', source])).stdout);

    const status = await pipeline.cli(['status', runId, '--json']);

    expect(JSON.parse(status.stdout)).toMatchObject({ id: runId, state: 'queued', total: 40, settled: 0 });
    expect(pipeline.sandbox.stats().total).toBe(0);
  });

  it('queues a new run once the source file changes', async () => {
    const first = runIdOf(
      (await pipeline.cli(['import', await pipeline.csv('catalog.csv', catalogRows(10))])).stdout,
    );

    const changed = await pipeline.cli(['import', await pipeline.csv('catalog.csv', catalogRows(11))]);

    expect(runIdOf(changed.stdout)).not.toBe(first);
  });

  it('lets `run` on the same source finish the queued run instead of queueing another', async () => {
    const source = await pipeline.csv('catalog.csv', catalogRows(120));
    const runId = runIdOf((await pipeline.cli(['import', source])).stdout);

    const run = await pipeline.cli(['run', source]);

    expect(run.code).toBe(0);
    expect(runIdOf(run.stdout)).toBe(runId);
    expect(run.stdout).toContain('rows      120: 120 created');
    expect(pipeline.products()).toHaveLength(120);
    expect((await queued(runId)).runs).toEqual([runId]);
  });

  it('lets a plain `run` read the products rather than finish a queued `--incremental` run', async () => {
    // Nightly --incremental, weekly a plain run to catch edits made on the marketplace: the weekly
    // run must not be taken for the nightly one still queued (it would rely on the record).
    const source = await pipeline.csv('catalog.csv', catalogRows(5));
    expect((await pipeline.cli(['run', source, '--incremental'])).code).toBe(0);
    const [edited] = pipeline.products();
    pipeline.sandbox.editProduct(MAIN_SELLER, String(edited!.id), { name: 'Edited by hand' });
    const queuedRun = runIdOf((await pipeline.cli(['import', source, '--incremental'])).stdout);

    const run = await pipeline.cli(['run', source]);

    expect(run.code, run.stderr).toBe(0);
    expect(runIdOf(run.stdout)).not.toBe(queuedRun);
    expect(run.stdout).toContain('1 updated');
    expect(pipeline.products().find((product) => product.id === edited!.id)?.name).not.toBe('Edited by hand');
    // The queued run is not left behind: served too (it sends nothing the record does not call for).
    const queuedState = JSON.parse((await pipeline.cli(['status', queuedRun, '--json'])).stdout).state;
    expect(['done', 'cancelled']).toContain(queuedState);
  });

  it('says a later run of the seller waits for the earlier one (runs are written in order)', async () => {
    const first = runIdOf(
      (await pipeline.cli(['import', await pipeline.csv('a.csv', catalogRows(5))])).stdout,
    );
    const later = runIdOf(
      (await pipeline.cli(['import', await pipeline.csv('b.csv', catalogRows(5, 100))])).stdout,
    );

    const text = await pipeline.cli(['status', later]);
    const json = JSON.parse((await pipeline.cli(['status', later, '--json'])).stdout);
    const firstJson = JSON.parse((await pipeline.cli(['status', first, '--json'])).stdout);

    expect(text.stdout).toContain(`  order     waits for run ${first} of this seller to end`);
    expect(json.waitsForRun).toBe(first);
    expect(firstJson.waitsForRun).toBeNull();
    expect((await pipeline.cli(['status', first])).stdout).not.toContain('  order ');
  });
});
