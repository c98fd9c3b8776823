import { describe, expect, it } from 'vitest';
import { type CatalogRow, catalogRows, priceNumber } from '../support/catalog.js';
import { bySku, MAIN_SELLER, pipelineEnv, requestCounts, usePipeline } from '../support/pipeline.js';
import { clusterUnsupported, useTestCluster } from '../support/redis-cluster.js';

const OTHER_KEY = 'sk_test_other';
const OTHER_SELLER = 'seller-other';
const unsupported = clusterUnsupported();

describe.skipIf(unsupported !== null)(
  `on a Redis Cluster of 3 masters (REDIS_CLUSTER)${unsupported ? `: skipped, ${unsupported}` : ''}`,
  () => {
    const { cluster: holder } = { cluster: useTestCluster() };
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
