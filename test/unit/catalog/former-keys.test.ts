import { describe, expect, it } from 'vitest';
import type { MappedRow } from '../../../src/interfaces.js';
import { mapRows } from './map-rows.js';

/**
 * A row with a SKU carries the key its product had before it had one (its former key), where the
 * preset derives it from the platform's lasting identity of the product (docs/sources.md).
 */
const formerOf = (row: MappedRow | undefined) =>
  row?.kind === 'upsert' ? (row.formerKey ?? null) : `not an upsert: ${JSON.stringify(row)}`;

const WOO = ['ID', 'Type', 'SKU', 'Name', 'Regular price', 'Parent', 'Attribute 1 value(s)'];
const SHOPIFY = ['Handle', 'Title', 'Option1 Name', 'Option1 Value', 'Variant SKU', 'Variant Price'];

describe('former keys of the presets', () => {
  it('WooCommerce: woocommerce:id:<ID> for a row with SKU and ID; none without ID, nor for a name', async () => {
    const rows = await mapRows(WOO, [
      ['69', 'simple', 'CHAIR-01', 'Chair', '249'],
      ['70', 'simple', '', 'Stool', '20'],
      ['', 'simple', 'TABLE-1', 'Table', '99'],
      ['71', 'variation', 'V-RED', '', '5', 'id:68', 'Red'],
    ]);
    expect(rows.map(formerOf)).toEqual(['woocommerce:id:69', null, null, 'woocommerce:id:71']);
    // The row without SKU is keyed by it, as before, and carries nothing more.
    expect(rows[1]).toMatchObject({ kind: 'upsert', key: 'woocommerce:id:70' });
  });

  it('Shopify: shopify:<handle>[:<options>] for a variant with SKU; none where variants of a handle share it', async () => {
    const rows = await mapRows(SHOPIFY, [
      ['floor-lamp', 'Floor Lamp', 'Title', 'Default Title', 'LAMP-001', '69.99'],
      ['shirt', 'Shirt', 'Size', 'S', 'SHIRT-S', '10'],
      ['shirt', '', 'Size', 'M', '', '10'],
      ['mug', 'Mug', '', '', 'MUG-1', '5'],
      ['mug', '', '', '', 'MUG-2', '5'],
    ]);
    expect(rows.map(formerOf)).toEqual(['shopify:floor-lamp', 'shopify:shirt:S', null, null, null]);
    expect(rows[2]).toMatchObject({ kind: 'upsert', key: 'shopify:shirt:M' });
  });

  it('none with --match-by other than sku: derived keys match by sku only', async () => {
    const rows = await mapRows(
      [...SHOPIFY, 'Variant Barcode'],
      [['floor-lamp', 'Floor Lamp', 'Title', 'Default Title', 'LAMP-001', '69.99', '4006381333931']],
      { matchBy: 'barcode' },
    );
    expect(rows.map(formerOf)).toEqual([null]);
  });

  it('the other platforms: by their ids, never by a name', async () => {
    const etsy = await mapRows(
      ['TITLE', 'PRICE', 'CURRENCY_CODE', 'SKU', 'LISTING_ID'],
      [
        ['Bowl', '10', 'USD', 'BOWL-1', '123'],
        ['Cup', '10', 'USD', 'CUP-1', ''],
      ],
    );
    expect(etsy.map(formerOf)).toEqual(['etsy:123', null]);
    const shopware = await mapRows(
      ['id', 'product_number', 'name', 'price_gross', 'tax_rate'],
      [['0a1b', 'SW-1', 'Lamp', '10', '19']],
    );
    expect(shopware.map(formerOf)).toEqual(['shopware:id:0a1b']);
  });
});

describe('former keys within one source: one product, one row', () => {
  it('a row without SKU keyed as an earlier row carries it: a duplicate, naming that row', async () => {
    const rows = await mapRows(WOO, [
      ['69', 'simple', 'CHAIR-01', 'Chair', '249'],
      ['69', 'simple', '', 'Chair again', '249'],
    ]);
    expect(rows[1]).toMatchObject({
      kind: 'invalid',
      reason:
        "its key woocommerce:id:69, made from the ID 69, is row 1's former key: that row is the same product, with a SKU (keep one of the rows)",
    });
  });

  it('a row carrying the key an earlier row is keyed by: invalid, nothing written twice', async () => {
    const rows = await mapRows(WOO, [
      ['69', 'simple', '', 'Chair', '249'],
      ['69', 'simple', 'CHAIR-01', 'Chair again', '249'],
    ]);
    expect(rows[1]).toMatchObject({
      kind: 'invalid',
      reason: "its former key woocommerce:id:69 is row 1's key: two rows may not write one product",
    });
  });

  it('two rows with their own SKUs and one former key: the second carries none, and says so', async () => {
    const rows = await mapRows(WOO, [
      ['69', 'simple', 'CHAIR-01', 'Chair', '249'],
      ['69', 'simple', 'CHAIR-02', 'Other chair', '249'],
    ]);
    expect(rows.map(formerOf)).toEqual(['woocommerce:id:69', null]);
    expect(rows[1]).toMatchObject({
      kind: 'upsert',
      notes: ["former key woocommerce:id:69 is row 1's too: not used to find the product"],
    });
  });

  it('with --missing, a row left out keeps its former key (the source holds its product); without, none', async () => {
    const columns = [...WOO, 'Published'];
    const row = ['69', 'simple', 'CHAIR-01', 'Chair', '249', '', '', '-1'];
    const [missing] = await mapRows(columns, [row], { onlyPublished: true, missing: true });
    const [plain] = await mapRows(columns, [row], { onlyPublished: true });
    expect(missing).toMatchObject({ kind: 'skipped', formerKey: 'woocommerce:id:69' });
    expect(plain).not.toHaveProperty('formerKey');
  });
});
