import { describe, expect, it } from 'vitest';
import type { ProductFields, ProductUpsert } from '../../../src/interfaces.js';
import { diffProduct, type IndexedProduct } from '../../../src/sync/diff.js';

/** A row of `--fields sku,price` whose price cell names EUR (validate.ts keeps it, unsent). */
const row = (fields: ProductFields): ProductUpsert => ({
  kind: 'upsert',
  row: 3,
  line: 4,
  key: 'A',
  fields,
  currencyUnsent: { currency: 'EUR', cell: 'price "9.50 EUR"' },
});

const listed = (values: IndexedProduct['values']): IndexedProduct => ({ id: '17', values });

describe('a price in a currency the row names, sent without currency (--fields)', () => {
  it('is sent where the listed product is in that currency', () => {
    expect(
      diffProduct(row({ sku: 'A', price: 9.5 }), listed({ sku: 'A', price: 12.5, currency: 'eur' })),
    ).toEqual({
      action: 'update',
      id: '17',
      fields: { price: 9.5 },
      notes: [],
      learned: {},
    });
  });

  it('refuses the row, one line, where the product is in another currency (its price unchanged too)', () => {
    const reason =
      'row 3: price "9.50 EUR" is in EUR, but product 17 is in USD on the marketplace, and --fields leaves currency out: add currency to --fields';
    expect(
      diffProduct(row({ sku: 'A', price: 9.5 }), listed({ sku: 'A', price: 12.5, currency: 'USD' })),
    ).toEqual({
      action: 'invalid',
      reason,
    });
    expect(
      diffProduct(row({ sku: 'A', price: 9.5 }), listed({ sku: 'A', price: 9.5, currency: 'USD' })),
    ).toEqual({
      action: 'invalid',
      reason,
    });
  });

  it('sends the price where nothing tells of a mismatch: no currency shown, or a product to create', () => {
    expect(diffProduct(row({ sku: 'A', price: 9.5 }), listed({ sku: 'A', price: 12.5 }))).toMatchObject({
      action: 'update',
      fields: { price: 9.5 },
    });
    expect(diffProduct(row({ sku: 'A', name: 'Mug', price: 9.5 }), undefined)).toMatchObject({
      action: 'create',
    });
  });

  it('an --incremental run that read no product goes by the currency this tool last sent', () => {
    const unread: IndexedProduct = { id: '17', values: {}, unread: true };
    expect(
      diffProduct(row({ sku: 'A', price: 9.5 }), unread, { sent: { price: 12.5, currency: 'EUR' } }),
    ).toMatchObject({
      action: 'update',
      fields: { price: 9.5 },
    });
    expect(
      diffProduct(row({ sku: 'A', price: 9.5 }), unread, { sent: { price: 12.5, currency: 'USD' } }),
    ).toEqual({
      action: 'invalid',
      reason:
        'row 3: price "9.50 EUR" is in EUR, but product 17 was last sent in USD on the marketplace, and --fields leaves currency out: add currency to --fields',
    });
    expect(diffProduct(row({ sku: 'A', price: 9.5 }), unread, { sent: { price: 12.5 } })).toMatchObject({
      action: 'update',
    });
  });
});
