import { describe, expect, it } from 'vitest';
import { samePlan, updateWrite } from '../../../src/guards/planned-writes.js';
import type { ProductUpsert } from '../../../src/interfaces.js';
import type { IndexedProduct } from '../../../src/sync/diff.js';

const row: ProductUpsert = { kind: 'upsert', row: 2, line: 3, key: 'B2', fields: { sku: 'B2', price: 0.2 } };
const unread: IndexedProduct = { id: '7', values: {}, unread: true };
const known = { id: '7', sent: { sku: 'B2', price: 20 } };

describe('updateWrite: an update as a guarded run plans it', () => {
  it('weighs an unread product’s price move from what this tool last sent it, and keeps no `before`', () => {
    const write = updateWrite({ maxPriceChange: '50%' }, row, unread, { price: 0.2 }, known);

    expect(write.before).toBeUndefined();
    expect(write.heldFor).toBe(
      'price 20 → 0.2 (-99%) exceeds --max-price-change 50% (20: the price this tool last sent; the run read no product)',
    );
  });

  it('weighs a read product’s price move from the price it shows, whatever was last sent', () => {
    const listed: IndexedProduct = { id: '7', values: { sku: 'B2', price: 0.25 } };
    const write = updateWrite({ maxPriceChange: '50%' }, row, listed, { price: 0.2 }, known);

    expect(write.before).toEqual({ price: 0.25 });
    expect(write.heldFor).toBeUndefined();
  });
});

describe('updateWrite: the price the buyer pays, sale prices included', () => {
  const onSale: ProductUpsert = {
    kind: 'upsert',
    row: 2,
    line: 3,
    key: 'S1',
    fields: { sku: 'S1', price: 200, sale_price: 2 },
  };

  it('holds a sale that starts on a product read, though its price does not move', () => {
    const listed: IndexedProduct = { id: '9', values: { sku: 'S1', price: 200 } };
    const write = updateWrite({ maxPriceChange: '10%' }, onSale, listed, { sale_price: 2 });

    expect(write.heldFor).toBe(
      'sale started: the price the buyer pays 200 → 2 (-99%) exceeds --max-price-change 10%',
    );
  });

  it('holds a sale price that changes on a product not read, from the prices this tool last sent it', () => {
    const lastSent = { id: '9', sent: { sku: 'S1', price: 50, sale_price: 40 } };
    const write = updateWrite(
      { maxPriceChange: '10%' },
      onSale,
      { id: '9', values: {}, unread: true },
      { sale_price: 4 },
      lastSent,
    );

    expect(write.heldFor).toBe(
      'sale price changed: the price the buyer pays 40 → 4 (-90%) exceeds --max-price-change 10%',
    );
  });

  it('names the price’s own move first, and holds nothing a write leaves the buyer’s price at', () => {
    const listed: IndexedProduct = { id: '9', values: { sku: 'S1', price: 200, sale_price: 150 } };

    expect(updateWrite({ maxPriceChange: '10%' }, onSale, listed, { price: 20, sale_price: 2 }).heldFor).toBe(
      'price 200 → 20 (-90%) exceeds --max-price-change 10%',
    );
    expect(updateWrite({ maxPriceChange: '10%' }, onSale, listed, { price: 210 }).heldFor).toBeUndefined();
    expect(updateWrite({ maxPriceChange: '10%' }, onSale, listed, { quantity: 0 }).heldFor).toBeUndefined();
  });
});

describe('samePlan: the write approve would send now is the one held', () => {
  const context = { createOnly: new Set<string>(), only: null, matchBy: 'sku' };

  it('a write planned unread, approved against the product read, is the same while its fields are', () => {
    const held = updateWrite({}, row, unread, { price: 0.2 }, known);
    const listed: IndexedProduct = { id: '7', values: { sku: 'B2', price: 20 } };

    expect(samePlan(context, held, row, { remote: listed, known })).toBe(true);
  });

  it('is re-planned when the product shows the source’s value already', () => {
    const held = updateWrite({}, row, unread, { price: 0.2 }, known);
    const listed: IndexedProduct = { id: '7', values: { sku: 'B2', price: 0.2 } };

    expect(samePlan(context, held, row, { remote: listed, known })).toBe(false);
  });
});
