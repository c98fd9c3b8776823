import { describe, expect, it } from 'vitest';
import { updateWrite } from '../../../src/guards/planned-writes.js';
import type { ProductFields, ProductUpsert } from '../../../src/interfaces.js';
import { diffProduct, type IndexedProduct, type WriteMemory } from '../../../src/sync/diff.js';

/** A row that says its product is on no sale now (ProductUpsert.noSale). */
const noSale = (fields: ProductFields): ProductUpsert => ({
  kind: 'upsert',
  row: 1,
  line: 2,
  key: 'TEE',
  fields: { sku: 'TEE', ...fields },
  noSale: true,
});
const listed = (values: IndexedProduct['values']): IndexedProduct => ({
  id: '7',
  values: { sku: 'TEE', ...values },
});
const unread: IndexedProduct = { id: '7', values: {}, unread: true };
const sentBefore = (sent: WriteMemory['sent']): WriteMemory => ({ sent: { sku: 'TEE', ...sent } });

describe('a sale that ended in the source, ended on the marketplace (the price sent as the sale price)', () => {
  it('a sale price shown below the price: sent as the price, with a note', () => {
    expect(diffProduct(noSale({ price: 50 }), listed({ price: 50, sale_price: 40 }))).toEqual({
      action: 'update',
      id: '7',
      fields: { sale_price: 50 },
      notes: [
        'sale_price 40 ended (the source has no sale now): sent as the price 50, as the API cannot clear a field',
      ],
      learned: {},
    });
  });

  it('a price raised above the old sale price: the sale price goes with it (a compare-at removed, then the price raised)', () => {
    expect(diffProduct(noSale({ price: 12 }), listed({ price: 10, sale_price: 10 }))).toMatchObject({
      action: 'update',
      fields: { price: 12, sale_price: 12 },
    });
  });

  it('no write where there is no sale to end: none shown, or one not below the price', () => {
    expect(diffProduct(noSale({ price: 20 }), listed({ price: 20 }))).toMatchObject({ action: 'unchanged' });
    expect(diffProduct(noSale({ price: 20 }), listed({ price: 20, sale_price: 20 }))).toMatchObject({
      action: 'unchanged',
      notes: [],
    });
    expect(diffProduct(noSale({ price: 20 }), listed({ price: 20, sale_price: '25.00' }))).toMatchObject({
      action: 'unchanged',
    });
    // A 0 is how some APIs show no sale price.
    expect(diffProduct(noSale({ price: 20 }), listed({ price: 20, sale_price: 0 }))).toMatchObject({
      action: 'unchanged',
    });
  });

  it('a row that does not say so (a generic file) leaves a sale price as it is', () => {
    const row = { ...noSale({ price: 50 }), noSale: undefined };
    expect(diffProduct(row, listed({ price: 50, sale_price: 40 }))).toMatchObject({ action: 'unchanged' });
  });

  it('a product not read (--incremental from its record): weighed against what this tool last sent', () => {
    const memory = sentBefore({ price: 50, sale_price: 40 });
    expect(diffProduct(noSale({ price: 50 }), unread, memory)).toMatchObject({
      action: 'update',
      fields: { sale_price: 50 },
    });
    expect(
      diffProduct(noSale({ price: 50 }), unread, sentBefore({ price: 50, sale_price: 50 })),
    ).toMatchObject({
      action: 'unchanged',
    });
    expect(diffProduct(noSale({ price: 50 }), unread, sentBefore({ price: 50 }))).toMatchObject({
      action: 'unchanged',
    });
  });

  it('--create-only-fields sale_price, or --fields without it: not sent in an update', () => {
    const shown = listed({ price: 50, sale_price: 40 });
    expect(
      diffProduct(noSale({ price: 50 }), shown, undefined, { createOnly: new Set(['sale_price']) }),
    ).toMatchObject({
      action: 'unchanged',
    });
    expect(
      diffProduct(noSale({ price: 50 }), shown, undefined, { sent: new Set(['sku', 'price']) }),
    ).toMatchObject({
      action: 'unchanged',
    });
  });

  it('--keep-remote-edits sale_price keeps a sale price set on the marketplace, not one this tool sent', () => {
    const shown = listed({ price: 50, sale_price: 40 });
    const keepRemote = new Set(['sale_price']);
    expect(
      diffProduct(noSale({ price: 50 }), shown, sentBefore({ price: 50 }), { keepRemote }),
    ).toMatchObject({
      action: 'unchanged',
      notes: ['sale_price 40 set on the marketplace, kept (the source has no sale now)'],
    });
    expect(
      diffProduct(noSale({ price: 50 }), shown, sentBefore({ price: 50, sale_price: 40 }), { keepRemote }),
    ).toMatchObject({ action: 'update', fields: { sale_price: 50 } });
  });

  it('--max-price-change weighs an ended sale as the move of the price the buyer pays', () => {
    const spec = { maxPriceChange: '10%' };
    const row = noSale({ price: 50 });
    expect(updateWrite(spec, row, listed({ price: 50, sale_price: 40 }), { sale_price: 50 }).heldFor).toBe(
      'sale ended: the price the buyer pays 40 → 50 (+25%) exceeds --max-price-change 10%',
    );
    expect(
      updateWrite(spec, row, listed({ price: 50, sale_price: 48 }), { sale_price: 50 }).heldFor,
    ).toBeUndefined();
    // Not read: the sale price this tool last sent is the one weighed.
    const known = { id: '7', sent: { price: 50, sale_price: 40 } };
    expect(updateWrite(spec, row, unread, { sale_price: 50 }, known).heldFor).toMatch(
      /^sale ended: .* 40 → 50/,
    );
  });
});
