import { describe, expect, it } from 'vitest';
import type { CatalogRow } from '../support/catalog.js';
import { bySku, MAIN_SELLER, runReported, usePipeline } from '../support/pipeline.js';

/**
 * A price the source gives above 0 that rounding (to `--price-decimals`, after `--tax-rate`) makes 0
 * would put the product on sale for nothing: the row is invalid, named with its value, and nothing
 * is sent for it. A 0 in the source is a free product, sent as 0.
 */
describe('a positive price that rounds to 0 is never sent as 0', () => {
  const pipeline = usePipeline();

  const run = (rows: CatalogRow[], ...args: string[]) => runReported(pipeline, rows, args);

  it('--tax-rate 7.7%: 0.004 is invalid (exit 1), no product is created at 0; 0 and 0.005 go out', async () => {
    const { result, writes, lines } = await run(
      [
        { sku: 'TINY', name: 'Tiny', price: '0.004' },
        { sku: 'FREE', name: 'Free', price: '0' },
        { sku: 'CENT', name: 'Cent', price: '0.005' },
      ],
      '--tax-rate',
      '7.7%',
    );
    expect(result.code).toBe(1);
    expect(lines[0]).toMatchObject({
      row: '1',
      key: 'TINY',
      action: 'invalid',
      status: 'failed',
      error:
        'price 0.004 + 7.7% tax rounds to 0.00 (2 decimals): a price above 0 is never sent as 0; give at least 0.01, or 0 for a free product',
    });
    expect(writes.creates).toBe(2);
    const products = bySku(pipeline.products());
    expect(products.has('TINY')).toBe(false);
    expect(products.get('FREE')?.price).toBe(0);
    expect(products.get('CENT')?.price).toBe(0.01);
  });

  it('--price-decimals 0 (a currency without cents): an existing product is not updated to 0, nor its sale price', async () => {
    pipeline.sandbox.seedProducts(MAIN_SELLER, [{ sku: 'YEN', name: 'Yen', price: 3, sale_price: 2 }]);
    const { result, writes, lines } = await run(
      [{ sku: 'YEN', name: 'Yen', price: '0.4', sale_price: '0.2' }],
      '--price-decimals',
      '0',
    );
    expect(result.code).toBe(1);
    expect(lines[0]).toMatchObject({ key: 'YEN', action: 'invalid', status: 'failed' });
    expect(lines[0]?.error).toMatch(
      /^price 0\.4 rounds to 0 \(0 decimals\): .*; sale_price 0\.2 rounds to 0 \(0 decimals\): /,
    );
    expect(writes.updates).toBe(0);
    expect(bySku(pipeline.products()).get('YEN')).toMatchObject({ price: 3, sale_price: 2 });
  });
});
