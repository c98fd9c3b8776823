import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { connectCluster } from '../../../src/redis/connect-cluster.js';
import { readServerInfo } from '../../../src/redis/server-info.js';
import { closeRedis } from '../../../src/redis/watch.js';
import { type CatalogRow, catalogRows, priceNumber } from '../support/catalog.js';
import { runCli, runIdOf } from '../support/cli.js';
import { freePort } from '../support/own-redis.js';
import { bySku, MAIN_SELLER, pipelineEnv, requestCounts, usePipeline } from '../support/pipeline.js';
import { clusterUnsupported, useTestCluster } from '../support/redis-cluster.js';
import { TEST_REDIS_URL } from '../support/redis-prefix.js';

const OTHER_KEY = 'sk_test_other';
const OTHER_SELLER = 'seller-other';
const unsupported = clusterUnsupported();

describe.skipIf(unsupported !== null)(
  `on a Redis Cluster of 3 masters (REDIS_CLUSTER)${unsupported ? `: skipped, ${unsupported}` : ''}`,
  () => {
    const holder = useTestCluster();
    const pipeline = usePipeline();
    const onCluster = () => ({ REDIS_CLUSTER: holder.cluster.nodes, REDIS_URL: 'redis://127.0.0.1:1' });

    function expectHolds(seller: string, rows: CatalogRow[]): void {
      const stored = bySku(pipeline.products(seller));
      // Exactly once: as many products as rows, each the row's.
      expect(pipeline.products(seller)).toHaveLength(rows.length);
      for (const row of rows) {
        expect(stored.get(row.sku)).toEqual({ sku: row.sku, name: row.name, price: priceNumber(row.price) });
      }
    }

    it("reports every command error (the health hook BullMQ's commands go through too) and reads INFO of every master", async () => {
      const nodes = holder.cluster.nodes.split(',');
      const redis = await connectCluster({ nodes, tls: false });
      try {
        const errors: unknown[] = [];
        redis.on('command-error', (error: unknown) => errors.push(error));
        await expect(redis.hincrby(`${pipeline.prefix}:{x}:h`, 'f', 'not-a-number')).rejects.toThrow();
        expect(errors).toHaveLength(1);
        const info = await readServerInfo(redis);
        expect(info).toMatchObject({ role: 'master', primary: null, policy: 'noeviction' });
        expect(Number(info?.version.split('.')[0])).toBeGreaterThanOrEqual(5);
      } finally {
        await closeRedis(redis);
      }
    });

    it('an `import` of a source still queued gives its run id again; `cancel` ends it, its jobs gone', async () => {
      const source = await pipeline.csv('catalog.csv', catalogRows(250));
      const first = await pipeline.cli(['import', source], onCluster());
      const second = await pipeline.cli(['import', source], onCluster());
      expect([first.code, second.code]).toEqual([0, 0]);
      const runId = runIdOf(first.stdout);
      expect(second.stdout.trim()).toBe(runId);
      expect(second.stderr).toContain(`already queued as run ${runId}`);

      // The seller's queue (its keys: `prefix:sync-{REF}:…`) holds the run's chunks, then none.
      const status = async () =>
        JSON.parse((await pipeline.cli(['status', runId, '--json'], onCluster())).stdout);
      const client = holder.cluster.client();
      const queue = new Queue(`sync-{${(await status()).sellerRef}}`, {
        connection: client,
        prefix: pipeline.prefix,
      });
      const jobs = () => queue.getJobCountByTypes('wait', 'prioritized', 'delayed', 'active');
      try {
        expect(await jobs()).toBe(3);
        const cancelled = await pipeline.cli(['cancel', runId], onCluster());
        expect(cancelled.code, cancelled.stderr).toBe(0);
        expect(await status()).toMatchObject({ id: runId, state: 'cancelled' });
        expect(await jobs()).toBe(0);
      } finally {
        await queue.close();
        client.disconnect();
      }
      expect(pipeline.sandbox.stats().byRoute['POST /products'] ?? 0).toBe(0);
    });

    it('syncs two sellers at once, each exactly once, then a re-run writes nothing', async () => {
      pipeline.sandbox.addKey(OTHER_KEY, OTHER_SELLER);
      const mine = catalogRows(120);
      const theirs = catalogRows(90).map((row, i) => ({
        ...row,
        name: `Other ${row.name}`,
        price: `${i + 1}.25`,
      }));
      const mineSource = await pipeline.csv('mine.csv', mine);
      const theirsSource = await pipeline.csv('theirs.csv', theirs);
      const otherEnv = { ...pipelineEnv(pipeline.sandbox, OTHER_KEY, pipeline.prefix), ...onCluster() };

      const [first, second] = await Promise.all([
        pipeline.cli(['run', mineSource], onCluster()),
        pipeline.cli(['run', theirsSource], otherEnv),
      ]);
      expect(first.stderr).toBe('');
      expect([first.code, second.code]).toEqual([0, 0]);
      expect(first.stdout).toContain('rows      120: 120 created');
      expect(second.stdout).toContain('rows      90: 90 created');
      expectHolds(MAIN_SELLER, mine);
      expectHolds(OTHER_SELLER, theirs);

      const before = requestCounts(pipeline.sandbox.stats());
      const again = await Promise.all([
        pipeline.cli(['run', mineSource], onCluster()),
        pipeline.cli(['run', theirsSource], otherEnv),
      ]);
      expect(again.map((result) => result.code)).toEqual([0, 0]);
      expect(again[0]?.stdout).toContain('rows      120: 0 created, 0 updated, 120 unchanged');
      expect(again[1]?.stdout).toContain('rows      90: 0 created, 0 updated, 90 unchanged');
      const after = requestCounts(pipeline.sandbox.stats());
      expect(after.creates - before.creates).toBe(0);
      expect(after.updates - before.updates).toBe(0);
      expectHolds(MAIN_SELLER, mine);
      expectHolds(OTHER_SELLER, theirs);

      // Nothing went to the single Redis, and every key the tool wrote carries a hash tag.
      const keys = await holder.cluster.keys(pipeline.prefix);
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.filter((key) => !/\{[^}]+\}/.test(key))).toEqual([]);
    });
  },
);

describe('REDIS_CLUSTER that cannot be used', () => {
  const env = { PATH: process.env.PATH, LOG_LEVEL: 'silent' };

  it.each(['127.0.0.1', 'redis://127.0.0.1', 'a:1,,b:2'])('%s: one line naming it, exit 2', async (value) => {
    const result = await runCli(['status'], { ...env, REDIS_CLUSTER: value });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('REDIS_CLUSTER lists a cluster');
  });

  it('a Redis that is no cluster: one line saying to use REDIS_URL, exit 2', async () => {
    const { hostname, port } = new URL(TEST_REDIS_URL);
    const result = await runCli(['status'], { ...env, REDIS_CLUSTER: `${hostname}:${port || 6379}` });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('is not a cluster');
    expect(result.stderr).toContain('REDIS_URL');
  });

  it('nothing answering: one line naming the nodes, exit 2', async () => {
    const port = await freePort();
    const result = await runCli(['status'], { ...env, REDIS_CLUSTER: `127.0.0.1:${port}` });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(
      `Redis Cluster is not reachable at redis-cluster://127.0.0.1:${port} (connect ECONNREFUSED 127.0.0.1:${port})`,
    );
    expect(result.stderr).toContain('every master must be reachable');
  });
});
