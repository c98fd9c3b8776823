import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CatalogRow, parseCsv } from '../support/catalog.js';
import { bySku, requestCounts, usePipeline } from '../support/pipeline.js';

const SHOPIFY_COLUMNS = ['Handle', 'Title', 'Variant SKU', 'Variant Price', 'Variant Compare At Price'];

/** One Shopify variant: the buyer pays `price`; a compare-at above it makes `price` a sale price. */
function shopifyRow(sku: string, price: string, compareAt: string): CatalogRow {
  return {
    Handle: sku.toLowerCase(),
    Title: `Product ${sku}`,
    'Variant SKU': sku,
    'Variant Price': price,
    'Variant Compare At Price': compareAt,
  } as never;
}

/**
 * `--max-price-change` weighs the price the buyer pays: a sale price that starts or changes moves
 * it as much as a price does, and is held past the limit as a sale that ends is.
 */
describe('--max-price-change weighs the price the buyer pays, sale prices included', () => {
  const pipeline = usePipeline();
  const report = () => join(pipeline.dir, 'report.csv');
  const reportLines = async () => parseCsv(await pipeline.readText('report.csv'));

  it('generic: a sale price that starts at 2 on a product at 200 is held, and nothing is sent', async () => {
    const columns = ['sku', 'name', 'price', 'sale_price'];
    const first = await pipeline.csv(
      'g1.csv',
      [{ sku: 'S1', name: 'Sofa', price: '200', sale_price: '' }],
      columns,
    );
    expect((await pipeline.cli(['run', first])).code).toBe(0);
    expect(bySku(pipeline.products()).get('S1')).toMatchObject({ price: 200 });

    pipeline.sandbox.resetStats();
    const second = await pipeline.csv(
      'g2.csv',
      [{ sku: 'S1', name: 'Sofa', price: '200', sale_price: '2' }],
      columns,
    );
    const held = await pipeline.cli(['run', second, '--max-price-change', '10%', '--report', report()]);

    expect(held.code, held.stderr).toBe(5);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
    expect(bySku(pipeline.products()).get('S1')).not.toHaveProperty('sale_price');
    expect((await reportLines())[0]).toMatchObject({
      key: 'S1',
      action: 'update',
      status: 'held',
      error: 'sale started: the price the buyer pays 200 → 2 (-99%) exceeds --max-price-change 10%',
    });

    // Within the limit the sale goes.
    const small = await pipeline.csv(
      'g3.csv',
      [{ sku: 'S1', name: 'Sofa', price: '200', sale_price: '190' }],
      columns,
    );
    expect((await pipeline.cli(['run', small, '--max-price-change', '10%'])).code).toBe(0);
    expect(bySku(pipeline.products()).get('S1')).toMatchObject({ price: 200, sale_price: 190 });
  });

  it('shopify: a sale that starts, and a sale price that changes, past the limit are held', async () => {
    const write = (name: string, rows: CatalogRow[]) => pipeline.csv(name, rows, SHOPIFY_COLUMNS);
    const first = await write('s1.csv', [
      shopifyRow('TEE', '20.00', ''),
      shopifyRow('CAP', '40.00', '50.00'),
    ]);
    expect((await pipeline.cli(['run', first])).code).toBe(0);
    expect(bySku(pipeline.products()).get('TEE')).toMatchObject({ price: 20 });
    expect(bySku(pipeline.products()).get('CAP')).toMatchObject({ price: 50, sale_price: 40 });
    const before = pipeline.products();

    pipeline.sandbox.resetStats();
    const second = await write('s2.csv', [
      shopifyRow('TEE', '2.00', '20.00'),
      shopifyRow('CAP', '4.00', '50.00'),
    ]);
    const held = await pipeline.cli(['run', second, '--max-price-change', '10%', '--report', report()]);

    expect(held.code, held.stderr).toBe(5);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
    expect(pipeline.products()).toEqual(before);
    const errors = new Map((await reportLines()).map((line) => [line.key, `${line.status}: ${line.error}`]));
    expect(errors.get('TEE')).toBe(
      'held: sale started: the price the buyer pays 20 → 2 (-90%) exceeds --max-price-change 10%',
    );
    expect(errors.get('CAP')).toBe(
      'held: sale price changed: the price the buyer pays 40 → 4 (-90%) exceeds --max-price-change 10%',
    );
  });
});
