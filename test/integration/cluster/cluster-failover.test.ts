import { afterEach, describe, expect, it } from 'vitest';
import { sellerRef } from '../../../src/sellers/seller-ref.js';
import { runIdOf } from '../support/cli.js';
import { type KilledMaster, killMasterOf, replicaTookOver } from '../support/cluster-failover.js';
import { MAIN_KEY, usePipeline } from '../support/pipeline.js';
import { clusterUnsupported, useTestCluster } from '../support/redis-cluster.js';
import { useStallingFeed } from '../support/stalling-feed.js';
import { until } from '../support/until.js';

const unsupported = clusterUnsupported();
const skipped = unsupported ? `: skipped, ${unsupported}` : '';

/** Rows the feed sends before it stalls (with their padding, more than the 64 KiB a run sniffs), and in all. */
const READ_FIRST = 150;
const ROWS = 200;
const PADDING = 500;

/** A feed that stalls after READ_FIRST rows until `resume`: the run or import is caught mid-read. */
function gatedFeed(feed: ReturnType<typeof useStallingFeed>): { url: Promise<string>; resume: () => void } {
  let resume: () => void = () => {};
  const resumed = new Promise<void>((resolve) => {
    resume = resolve;
  });
  return {
    url: feed({ rows: READ_FIRST, wholeRows: ROWS, stalls: 1, resumeWhen: resumed, padding: PADDING }),
    resume,
  };
}

/** The seller's SKUs in the sandbox: every row of the feed, each once. */
function expectEveryRowOnce(products: Array<Record<string, unknown>>): void {
  const skus = products.map((product) => String(product.sku));
  expect(new Set(skus).size).toBe(skus.length);
  expect(skus.length).toBe(ROWS);
}

describe.skipIf(unsupported !== null)(
  `a master failover on a Redis Cluster of 3 masters and 3 replicas${skipped}`,
  () => {
    // A master silent for 3 s is failed over: longer than ioredis's own retries (16 × 100 ms) last.
    const holder = useTestCluster({}, { replicas: 1, nodeTimeoutMs: 3000 });
    const pipeline = usePipeline();
    const feed = useStallingFeed();
    let killed: KilledMaster | null = null;
    afterEach(async () => {
      // The killed master comes back as its successor's replica: the next test has a replica to promote.
      if (killed !== null) {
        await replicaTookOver(holder.cluster, killed);
        await holder.cluster.revive(killed.port);
      }
      await holder.cluster.replicasInSync();
      killed = null;
    });
    const onCluster = () => ({ REDIS_CLUSTER: holder.cluster.nodes, REDIS_URL: 'redis://127.0.0.1:1' });
    const sellerSlotKey = () => `{${sellerRef(pipeline.sandbox.baseUrl, MAIN_KEY)}}`;

    it("`run` rides it out mid-read (its seller's master killed) and creates every row once", {
      timeout: 90_000,
    }, async () => {
      const source = gatedFeed(feed);
      const run = pipeline.spawn(['run', await source.url, '--concurrency', '8'], onCluster());
      await until('rows under way', () => pipeline.sandbox.stats().writesApplied >= 10, 60_000);
      // The rest of the source is read, queued and sent while no node serves the seller's slot.
      killed = await killMasterOf(holder.cluster, sellerSlotKey());
      source.resume();
      const { code } = await run.exited;

      expect(run.stderr()).toBe('');
      expect(code).toBe(0);
      expect(run.stdout()).toContain(
        `rows      ${ROWS}: ${ROWS} created, 0 updated, 0 unchanged, 0 invalid, 0 failed`,
      );
      expectEveryRowOnce(pipeline.products());
    });

    it('`import` rides it out mid-read, prints its run id, and a worker then creates every row once', {
      timeout: 90_000,
    }, async () => {
      const source = gatedFeed(feed);
      const queueing = pipeline.spawn(['import', await source.url], onCluster());
      // The producer has queued its first chunks: a worker would take them now.
      await until(
        'the first chunks queued',
        async () => {
          const status = await pipeline.cli(['status', '--json'], onCluster());
          return status.code === 0 && (JSON.parse(status.stdout) as { total?: number }).total !== undefined;
        },
        60_000,
      );

      killed = await killMasterOf(holder.cluster, sellerSlotKey());
      source.resume();
      const { code } = await queueing.exited;
      expect(queueing.stderr()).not.toContain('    at ');
      expect(code).toBe(0);
      const runId = runIdOf(queueing.stdout());

      pipeline.spawn(['worker', '--concurrency', '8'], onCluster());
      await until(
        'the run done',
        async () => {
          const status = await pipeline.cli(['status', runId, '--json'], onCluster());
          return (JSON.parse(status.stdout) as { state?: string }).state === 'done';
        },
        60_000,
      );
      const done = JSON.parse((await pipeline.cli(['status', runId, '--json'], onCluster())).stdout) as {
        counts: Record<string, number>;
      };
      expect(done.counts).toMatchObject({ created: ROWS, failed: 0 });
      expectEveryRowOnce(pipeline.products());
    });
  },
);

describe.skipIf(unsupported !== null)(`a Redis Cluster whose master stays down${skipped}`, () => {
  // No replica: the killed master's slots stay unserved.
  const holder = useTestCluster({}, { nodeTimeoutMs: 1000 });
  const pipeline = usePipeline();
  const feed = useStallingFeed();

  it('ends `run` with one line and exit 2, no stack trace', {
    timeout: 60_000,
  }, async () => {
    const source = gatedFeed(feed);
    const env = {
      REDIS_CLUSTER: holder.cluster.nodes,
      REDIS_URL: 'redis://127.0.0.1:1',
      // How long a command is retried through a failover before the run gives up (a test's patience).
      CATALOG_SYNC_REDIS_DEADLINE_MS: '2000',
      CATALOG_SYNC_CLOSE_DEADLINE_MS: '1000',
    };
    const run = pipeline.spawn(['run', await source.url, '--concurrency', '8'], env);
    await until('rows under way', () => pipeline.sandbox.stats().writesApplied >= 10, 60_000);

    await killMasterOf(holder.cluster, `{${sellerRef(pipeline.sandbox.baseUrl, MAIN_KEY)}}`);
    source.resume();
    const { code } = await run.exited;

    const lines = run.stderr().trim().split('\n');
    expect(code).toBe(2);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^catalog-sync: Redis at redis-cluster:\/\/127\.0\.0\.1:\d+,\S+ has not answered for 2 s; stopping\. Nothing is lost/,
    );
  });
});
