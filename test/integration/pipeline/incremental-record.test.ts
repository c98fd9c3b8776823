import { describe, expect, it } from 'vitest';
import { RedisKeys } from '../../../src/runs/keys.js';
import { sellerRef } from '../../../src/sellers/seller-ref.js';
import { expectExactCatalog } from '../failures/support/exact-catalog.js';
import { type CatalogRow, catalogRows } from '../support/catalog.js';
import { MAIN_KEY, MAIN_SELLER, requestCounts, usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';

describe('--incremental: what this tool last sent instead of the seller’s products', () => {
  const pipeline = usePipeline({ normalize: true });

  /** Runs `rows` with --incremental (plus `args`); resolves to the requests that run sent, by kind. */
  async function incremental(name: string, rows: CatalogRow[], ...args: string[]) {
    const before = requestCounts(pipeline.sandbox.stats());
    const result = await pipeline.cli(['run', await pipeline.csv(name, rows), '--incremental', ...args]);
    expect(result.code, result.stderr).toBe(0);
    const after = requestCounts(pipeline.sandbox.stats());
    return {
      lists: after.lists - before.lists,
      creates: after.creates - before.creates,
      updates: after.updates - before.updates,
      total: after.total - before.total,
    };
  }

  const forgetFullRead = () =>
    withRedis((redis) =>
      redis.del(new RedisKeys(pipeline.prefix).fullRead(sellerRef(pipeline.sandbox.baseUrl, MAIN_KEY))),
    );

  it('reads the products on a first run, then an unchanged re-run sends no request at all', async () => {
    const rows = catalogRows(150);
    const first = await incremental('catalog.csv', rows);
    expect(first.lists).toBeGreaterThan(0);
    expect(first.creates).toBe(150);

    const second = await incremental('catalog.csv', rows);

    expect(second.total).toBe(0);
    expectExactCatalog(pipeline.products(), rows);
  });

  it('sends exactly one request per changed or new row', async () => {
    const rows = catalogRows(100);
    await incremental('catalog.csv', rows);
    const changed = rows.map((row, i) => (i === 7 ? { ...row, name: `${row.name} v2` } : row));
    changed.push(...catalogRows(1, 500));

    const next = await incremental('changed.csv', changed);

    expect(next).toEqual({ lists: 0, creates: 1, updates: 1, total: 2 });
    expectExactCatalog(pipeline.products(), changed);
  });

  it('updates, never creates again, a product the seller had before that the source holds only later', async () => {
    const [earlier] = catalogRows(1, 900);
    pipeline.sandbox.seedProducts(MAIN_SELLER, [
      { ...earlier, price: Number(earlier!.price), name: 'Old name' },
    ]);
    const rows = catalogRows(10);
    await incremental('catalog.csv', rows);

    const next = await incremental('grown.csv', [...rows, earlier!]);

    expect(next).toEqual({ lists: 0, creates: 0, updates: 1, total: 1 });
    expectExactCatalog(pipeline.products(), [...rows, earlier!]);
  });

  it('--max-updates P% weighs the updates against the products the record holds, as the list is not read', async () => {
    const rows = catalogRows(100);
    await incremental('catalog.csv', rows, '--max-updates', '10%');
    const edited = (count: number) =>
      rows.map((row, i) => (i < count ? { ...row, name: `${row.name} v${count}` } : row));

    const within = await incremental('five.csv', edited(5), '--max-updates', '10%');
    expect(within).toEqual({ lists: 0, creates: 0, updates: 5, total: 5 });

    const over = await pipeline.cli([
      'run',
      await pipeline.csv('twenty.csv', edited(20)),
      '--incremental',
      '--max-updates',
      '10%',
    ]);
    expect(over.code).toBe(5);
    expect(over.stdout).toContain(
      '20 of 100 products would be updated (20%), more than --max-updates 10%: nothing was sent',
    );
    expectExactCatalog(pipeline.products(), edited(5));
  });

  it('reads the products again when the last full read is older than --full-read-after', async () => {
    const rows = catalogRows(20);
    await incremental('catalog.csv', rows);

    const next = await incremental('catalog.csv', rows, '--full-read-after', '1ms');

    expect(next.lists).toBeGreaterThan(0);
    expect(next.creates + next.updates).toBe(0);
  });

  it('reads the products again when the record is gone, and creates nothing twice', async () => {
    const rows = catalogRows(20);
    await incremental('catalog.csv', rows);
    await forgetFullRead();

    const next = await incremental('catalog.csv', rows);

    expect(next.lists).toBeGreaterThan(0);
    expect(next.creates + next.updates).toBe(0);
    expectExactCatalog(pipeline.products(), rows);
  });

  it('repairs drift on the marketplace at the next full read, not before', async () => {
    const rows = catalogRows(5);
    await incremental('catalog.csv', rows);
    const [first] = pipeline.products();
    pipeline.sandbox.editProduct(MAIN_SELLER, String(first!.id), { name: 'Edited by hand' });

    const blind = await incremental('catalog.csv', rows);
    await forgetFullRead();
    const full = await incremental('catalog.csv', rows);

    expect(blind.total).toBe(0);
    expect(full.updates).toBe(1);
    expectExactCatalog(pipeline.products(), rows);
  });
});
