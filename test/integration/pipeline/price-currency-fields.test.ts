import { describe, expect, it } from 'vitest';
import { bySku, runReported, usePipeline } from '../support/pipeline.js';

/**
 * `--fields sku,price` on a file whose price cells name their currency: the price goes only to a
 * product listed in that currency; another row is invalid, one line, never a price in the wrong
 * currency. Adding currency to --fields sends it.
 */
describe('a price cell’s currency with --fields that leaves currency out', () => {
  const pipeline = usePipeline();

  it('sends the price where the product is in its currency, refuses the row where not, and sends both once asked', async () => {
    await runReported(pipeline, [
      { sku: 'USD-1', name: 'Mug', price: '12.50 USD' },
      { sku: 'USD-2', name: 'Cup', price: '12.50 USD' },
      { sku: 'EUR-1', name: 'Jar', price: '12.50 EUR' },
    ]);

    const prices = [
      { sku: 'USD-1', name: 'Mug', price: '9.50 USD' },
      { sku: 'USD-2', name: 'Cup', price: '9.50 EUR' },
      { sku: 'EUR-1', name: 'Jar', price: '€9.50' },
    ];
    const only = await runReported(pipeline, prices, ['--fields', 'sku,price']);

    expect(only.result.code).toBe(1);
    const id = String(pipeline.products().find((product) => product.sku === 'USD-2')?.id);
    expect(only.lines.map((line) => [line.key, line.action, line.error])).toEqual([
      ['USD-1', 'update', ''],
      [
        'USD-2',
        'invalid',
        `row 2: price "9.50 EUR" is in EUR, but product ${id} is in USD on the marketplace, and --fields leaves currency out: add currency to --fields`,
      ],
      ['EUR-1', 'update', ''],
    ]);
    expect(only.writes).toMatchObject({ creates: 0, updates: 2 });
    let products = bySku(pipeline.products());
    expect(products.get('USD-1')).toMatchObject({ price: 9.5, currency: 'USD' });
    // Left as it was: 9.50 EUR is never sent as 9.50 USD.
    expect(products.get('USD-2')).toMatchObject({ price: 12.5, currency: 'USD' });
    expect(products.get('EUR-1')).toMatchObject({ price: 9.5, currency: 'EUR' });

    const both = await runReported(pipeline, prices, ['--fields', 'sku,price,currency']);

    expect(both.result.code).toBe(0);
    expect(both.writes).toMatchObject({ creates: 0, updates: 1 });
    products = bySku(pipeline.products());
    expect(products.get('USD-2')).toMatchObject({ price: 9.5, currency: 'EUR' });
  });
});
