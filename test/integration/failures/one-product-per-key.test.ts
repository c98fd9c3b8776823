import { describe, expect, it } from 'vitest';
import { RedisKeys } from '../../../src/runs/keys.js';
import { sellerRef } from '../../../src/sellers/seller-ref.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { requestCounts } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';
import { expectExactCatalog } from './support/exact-catalog.js';
import { type FailureRig, KEY_A, runDone, SELLER_A, useFailureRig } from './support/rig.js';

/** Leaves a create's claim on `sku` as a worker killed between its claim and its record would. */
async function leaveDeadClaim(rig: FailureRig, sku: string): Promise<void> {
  const keys = new RedisKeys(rig.prefix);
  const ref = sellerRef(rig.sandbox.baseUrl, KEY_A);
  // Expired a second ago: its holder stopped renewing it.
  const claim = `dead-run|dead-token|${Date.now() - 1000}`;
  await withRedis((redis) => redis.hset(keys.pendingCreates(ref), sku, claim));
}

describe('one product per key, whatever overlaps', () => {
  describe('two runs of one seller at once', () => {
    const rig = useFailureRig(() => ({ latencyMs: 15 }));

    it('on two files sharing 100 new keys, creates each product once', { timeout: 60_000 }, async () => {
      const shared = catalogRows(100);
      const a = await rig.csv('a.csv', [...shared, ...catalogRows(20, 1001)]);
      const b = await rig.csv('b.csv', [...catalogRows(20, 2001), ...shared]);

      const [first, second] = await Promise.all([rig.cli(['run', a]), rig.cli(['run', b])]);

      expect([first.code, second.code]).toEqual([0, 0]);
      expectExactCatalog(rig.sandbox.products(SELLER_A), [
        ...shared,
        ...catalogRows(20, 1001),
        ...catalogRows(20, 2001),
      ]);
    });

    it('on the same 300-row file, started twice, creates each product once', {
      timeout: 60_000,
    }, async () => {
      const rows = catalogRows(300);
      const source = await rig.csv('catalog.csv', rows);
      const copy = await rig.csv('copy.csv', rows);

      const results = await Promise.all([rig.cli(['run', source]), rig.cli(['run', copy])]);

      expect(results.map((result) => result.code)).toEqual([0, 0]);
      expectExactCatalog(rig.sandbox.products(SELLER_A), rows);
      expect(requestCounts(rig.sandbox.stats()).creates, 'POSTs sent').toBe(rows.length);
    });
  });

  describe('a run queued behind one that waits on the daily limit', () => {
    // One-second days, the reset said in epoch milliseconds: the worker goes on at the reset itself.
    const rig = useFailureRig(() => ({
      dailyLimit: 30,
      dayLengthMs: 1000,
      resetHeader: 'x-ratelimit-reset-ms',
    }));

    it('leaves no duplicate when both go on after the reset', { timeout: 60_000 }, async () => {
      const rows = catalogRows(60);
      const limited = await rig.cli(['run', await rig.csv('monday.csv', rows), '--no-wait']);
      expect(limited.code).toBe(4);
      // The next night's cron: the same products, another file.
      const queued = await rig.cli(['import', await rig.csv('tuesday.csv', rows)]);
      expect(queued.code).toBe(0);

      rig.spawn(['worker', '--concurrency', '4']);
      const [first, second] = await Promise.all([
        runDone(rig, runIdOf(limited.stderr)),
        runDone(rig, runIdOf(queued.stdout)),
      ]);

      expectExactCatalog(rig.sandbox.products(SELLER_A), rows);
      expect([first.counts.failed, second.counts.failed]).toEqual([0, 0]);
      expect((first.counts.created ?? 0) + (second.counts.created ?? 0)).toBe(rows.length);
    });
  });

  describe('a create whose worker was killed between its claim and its record', () => {
    // The API does not list `sku`: only a look-up by the other fields can find an applied create.
    const rig = useFailureRig(() => ({ hideFields: ['sku'] }));

    it('is sent once by the next run when the killed POST never left', { timeout: 30_000 }, async () => {
      const rows = catalogRows(5);
      await leaveDeadClaim(rig, rows[2]!.sku);

      const result = await rig.cli(['run', await rig.csv('catalog.csv', rows)]);

      expect(result.code).toBe(0);
      expectExactCatalog(rig.sandbox.products(SELLER_A), rows);
    });

    it('is found, not sent again, when the killed POST had been applied', { timeout: 30_000 }, async () => {
      const rows = catalogRows(5);
      const applied = rows[2]!;
      rig.sandbox.seedProducts(SELLER_A, [
        { sku: applied.sku, name: applied.name, price: Number(applied.price) },
      ]);
      await leaveDeadClaim(rig, applied.sku);

      const result = await rig.cli(['run', await rig.csv('catalog.csv', rows)]);

      expect(result.code).toBe(0);
      expectExactCatalog(rig.sandbox.products(SELLER_A), rows);
      expect(requestCounts(rig.sandbox.stats()).creates, 'POSTs sent').toBe(rows.length - 1);
    });
  });
});
