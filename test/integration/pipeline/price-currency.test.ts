import { describe, expect, it } from 'vitest';
import { bySku, runReported, usePipeline } from '../support/pipeline.js';

/** A generic file whose price cells write their currency, as a seller's own sheet may. */
const ROWS = [
  { sku: 'USD-1', name: 'Mug', price: '12.50 USD' },
  { sku: 'EUR-1', name: 'Mug', price: '12.50 EUR' },
  { sku: 'EUR-2', name: 'Cup', price: '€9.99' },
  { sku: 'JPY-1', name: 'Bowl', price: 'JPY 1500' },
  { sku: 'XYZ-1', name: 'Jar', price: '12.50 XYZ' },
  { sku: 'DOL-1', name: 'Pot', price: '$12.50' },
  { sku: 'PLAIN', name: 'Pan', price: '12.50' },
];

describe('a generic file that writes the currency in its price cells', () => {
  const pipeline = usePipeline();

  it('sends each row its currency, refuses a code that is none, notes a sign that names several; a re-run writes nothing', async () => {
    const first = await runReported(pipeline, ROWS);

    expect(first.result.code).toBe(1);
    expect(first.lines.map((line) => [line.key, line.action, line.error || line.note])).toEqual([
      ['USD-1', 'create', ''],
      ['EUR-1', 'create', ''],
      ['EUR-2', 'create', ''],
      ['JPY-1', 'create', ''],
      [
        'XYZ-1',
        'invalid',
        `price "12.50 XYZ": XYZ is not a currency code (ISO 4217): write the currency's code beside the price (12.50 EUR)`,
      ],
      [
        'DOL-1',
        'create',
        'price "$12.50": no currency sent: $ is the sign of several currencies (USD, ARS, AUD …); write its code (12.50 USD) or give a currency column',
      ],
      ['PLAIN', 'create', ''],
    ]);
    // The invalid row is never sent.
    expect(first.writes).toMatchObject({ creates: 6, updates: 0 });
    const products = bySku(pipeline.products());
    expect(products.get('USD-1')).toEqual({ sku: 'USD-1', name: 'Mug', price: 12.5, currency: 'USD' });
    expect(products.get('EUR-1')).toEqual({ sku: 'EUR-1', name: 'Mug', price: 12.5, currency: 'EUR' });
    expect(products.get('EUR-2')).toMatchObject({ price: 9.99, currency: 'EUR' });
    expect(products.get('JPY-1')).toMatchObject({ price: 1500, currency: 'JPY' });
    expect(products.get('DOL-1')).toEqual({ sku: 'DOL-1', name: 'Pot', price: 12.5 });
    expect(products.get('PLAIN')).toEqual({ sku: 'PLAIN', name: 'Pan', price: 12.5 });
    expect(products.has('XYZ-1')).toBe(false);

    const second = await runReported(pipeline, ROWS);

    expect(second.writes).toMatchObject({ creates: 0, updates: 0 });
    expect(second.lines.filter((line) => line.action !== 'invalid').map((line) => line.action)).toEqual(
      ROWS.slice(0, 6).map(() => 'unchanged'),
    );
  });

  it('a product made before, without its currency, gets it in one update', async () => {
    await runReported(pipeline, [{ sku: 'EUR-1', name: 'Mug', price: '12.50' }]);

    const again = await runReported(pipeline, [{ sku: 'EUR-1', name: 'Mug', price: '12.50 EUR' }]);

    expect(again.writes).toMatchObject({ creates: 0, updates: 1 });
    expect(bySku(pipeline.products()).get('EUR-1')).toMatchObject({ price: 12.5, currency: 'EUR' });
  });
});
