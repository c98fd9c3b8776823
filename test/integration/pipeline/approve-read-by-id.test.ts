import { describe, expect, it } from 'vitest';
import { runIdOf } from '../support/cli.js';
import { bySku, MAIN_SELLER, type Pipeline, usePipeline } from '../support/pipeline.js';

/**
 * `approve` of a plain run (one that read the seller's whole list) reads again only what it needs:
 * the products its held updates address, by id (`GET /products?id=N`), when that takes fewer
 * requests than every page of the list, as `revert` does. A held create needs the list (a product
 * made meanwhile under its key is found there, not made twice), and so does an update whose product
 * is gone since (it is created again only when no product under its key is listed).
 */
describe('approve of a plain run reads the cheaper way', () => {
  const pipeline = usePipeline();

  /** The sandbox's stats over HTTP, as an operator would read them. */
  async function stats(): Promise<{ total: number; byRoute: Record<string, number> }> {
    const seam = pipeline.sandbox.baseUrl.replace(/\/api\/v1$/, '/__sandbox');
    return (await fetch(`${seam}/stats`)).json() as Promise<{
      total: number;
      byRoute: Record<string, number>;
    }>;
  }
  async function resetStats(): Promise<void> {
    const seam = pipeline.sandbox.baseUrl.replace(/\/api\/v1$/, '/__sandbox');
    await fetch(`${seam}/stats/reset`, { method: 'POST' });
  }

  /** 500 products P-1…P-500 on the marketplace (made by hand: seeded), priced 100 each. */
  function seed(p: Pipeline, count = 500): void {
    p.sandbox.seedProducts(
      MAIN_SELLER,
      Array.from({ length: count }, (_, i) => ({ sku: `P-${i + 1}`, name: `P ${i + 1}`, price: 100 })),
    );
  }

  /** The CSV of those products, prices changed for `cut` (to 1: past --max-price-change 50%). */
  async function feed(name: string, cut: number[], extra: string[] = []): Promise<string> {
    const rows = Array.from({ length: 500 }, (_, i) => ({
      sku: `P-${i + 1}`,
      name: `P ${i + 1}`,
      price: cut.includes(i + 1) ? '1' : '100',
    }));
    for (const sku of extra) rows.push({ sku, name: sku, price: '5' });
    return pipeline.csv(name, rows);
  }

  const priceOf = (sku: string) => bySku(pipeline.products()).get(sku)?.price;

  it('approve --rows 171 sends one GET by id and one PUT, not every page of the list', async () => {
    seed(pipeline);
    const held = await pipeline.cli([
      'run',
      await feed('a.csv', [171, 172, 300]),
      '--max-price-change',
      '50%',
    ]);
    expect(held.code, held.stderr).toBe(5);
    const id = runIdOf(held.stdout);
    await resetStats();

    const approved = await pipeline.cli(['approve', id, '--rows', '171']);

    expect(approved.code, approved.stderr).toBe(5);
    expect(await stats()).toMatchObject({ total: 2, byRoute: { 'GET /products': 1, 'PUT /products': 1 } });
    expect(priceOf('P-171')).toBe(1);
    expect(priceOf('P-172')).toBe(100);

    // The rest of the held rows, approved together: one GET each, still fewer than the 5 pages.
    await resetStats();
    const rest = await pipeline.cli(['approve', id]);
    expect(rest.code, rest.stderr).toBe(0);
    expect(await stats()).toMatchObject({ total: 4, byRoute: { 'GET /products': 2, 'PUT /products': 2 } });
    expect([priceOf('P-172'), priceOf('P-300')]).toEqual([1, 1]);
  });

  it('a product changed by hand since the hold is still re-planned from its read by id', async () => {
    seed(pipeline);
    const held = await pipeline.cli(['run', await feed('a.csv', [171]), '--max-price-change', '50%']);
    expect(held.code, held.stderr).toBe(5);
    const product = pipeline.products().find((p) => p.sku === 'P-171');
    // Already what the source says: the approve reads it by id, and writes nothing.
    pipeline.sandbox.editProduct(MAIN_SELLER, String(product?.id), { price: 1 });
    await resetStats();

    const approved = await pipeline.cli(['approve', runIdOf(held.stdout)]);

    expect(approved.code, approved.stderr).toBe(0);
    expect(await stats()).toMatchObject({ total: 1, byRoute: { 'GET /products': 1 } });
  });

  it('a held create still reads the list: a product made meanwhile under its key is not made twice', async () => {
    seed(pipeline);
    // 3 updates of 500 products and a new one, P-NEW: --max-updates holds the whole run.
    const held = await pipeline.cli(['run', await feed('a.csv', [1, 2, 3], ['P-NEW']), '--max-updates', '2']);
    expect(held.code, held.stderr).toBe(5);
    pipeline.sandbox.seedProducts(MAIN_SELLER, [{ sku: 'P-NEW', name: 'by hand', price: 5 }]);
    await resetStats();

    const approved = await pipeline.cli(['approve', runIdOf(held.stdout)]);

    expect(approved.code, approved.stderr).toBe(0);
    expect(pipeline.products().filter((p) => p.sku === 'P-NEW')).toHaveLength(1);
    expect((await stats()).byRoute['POST /products'] ?? 0).toBe(0);
  });

  it('an updated product gone since is looked for in the list before it is made again', async () => {
    seed(pipeline);
    const held = await pipeline.cli(['run', await feed('a.csv', [171]), '--max-price-change', '50%']);
    expect(held.code, held.stderr).toBe(5);
    // Deleted by hand, and made again by hand under the same key: the approve must find that one.
    const gone = pipeline.products().find((p) => p.sku === 'P-171');
    pipeline.sandbox.deleteProduct(MAIN_SELLER, String(gone?.id));
    pipeline.sandbox.seedProducts(MAIN_SELLER, [{ sku: 'P-171', name: 'P 171', price: 100 }]);
    await resetStats();

    const approved = await pipeline.cli(['approve', runIdOf(held.stdout)]);

    expect(approved.code, approved.stderr).toBe(0);
    expect(pipeline.products().filter((p) => p.sku === 'P-171')).toHaveLength(1);
    expect(priceOf('P-171')).toBe(1);
    expect((await stats()).byRoute['POST /products'] ?? 0).toBe(0);
  });
});
