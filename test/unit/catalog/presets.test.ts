import { describe, expect, it } from 'vitest';
import { mapRows } from './map-rows.js';

const SHOPIFY = [
  'Handle',
  'Title',
  'Option1 Name',
  'Option1 Value',
  'Option2 Value',
  'Variant SKU',
  'Variant Price',
  'Variant Compare At Price',
  'Image Src',
];

describe('shopify', () => {
  it('makes each variant a product named by title and options, and merges image-only rows', async () => {
    const rows = await mapRows(SHOPIFY, [
      ['tee', 'Tee', 'Color', 'Red', 'S', 'T-R-S', '20', '25', 'a.jpg'],
      ['tee', '', '', 'Red', 'M', 'T-R-M', '20', '', 'b.jpg'],
      ['tee', '', '', '', '', '', '', '', 'c.jpg'],
      ['mug', 'Mug', 'Title', 'Default Title', '', 'MUG', '9.5', '', ''],
    ]);
    expect(rows.map((row) => row.kind)).toEqual(['upsert', 'upsert', 'merged', 'upsert']);
    expect(rows[0]).toMatchObject({
      key: 'T-R-S',
      fields: { name: 'Tee - Red / S', price: 25, sale_price: 20, images: ['a.jpg', 'b.jpg', 'c.jpg'] },
    });
    expect(rows[1]).toMatchObject({ key: 'T-R-M', fields: { name: 'Tee - Red / M', price: 20 } });
    expect(rows[2]).toMatchObject({ kind: 'merged', row: 3, intoRow: 1, key: 'T-R-S' });
    expect(rows[3]).toMatchObject({ key: 'MUG', fields: { name: 'Mug', price: 9.5 } });
  });

  it('derives a stable key from handle and options where Variant SKU is empty, with a note', async () => {
    const rows = await mapRows(SHOPIFY, [
      ['tee', 'Tee', 'Size', 'S', '', '', '20', '', ''],
      ['tee', '', '', 'M', '', '', '21', '', ''],
      ['cap', 'Cap', 'Title', 'Default Title', '', '', '5', '', ''],
    ]);
    expect(rows.map((row) => (row.kind === 'upsert' ? row.key : row.kind))).toEqual([
      'shopify:tee:S',
      'shopify:tee:M',
      'shopify:cap',
    ]);
    expect(rows[0]).toMatchObject({
      notes: ['key derived from handle and options (no Variant SKU): shopify:tee:S, not sent as sku'],
    });
  });

  it('matches by a derived key but never sends it as the sku; a real Variant SKU is sent', async () => {
    const rows = await mapRows(SHOPIFY, [
      ['tee', 'Tee', 'Size', 'S', '', '', '20', '', 'a.jpg'],
      ['tee', '', '', 'M', '', 'T-M', '21', '', ''],
      ['tee', '', '', '', '', '', '', '', 'b.jpg'],
    ]);
    expect(rows).toMatchObject([
      { kind: 'upsert', key: 'shopify:tee:S', fields: { name: 'Tee - S', price: 20 } },
      { kind: 'upsert', key: 'T-M', fields: { sku: 'T-M', name: 'Tee - M', price: 21 } },
      { kind: 'merged', key: 'shopify:tee:S', intoRow: 1 },
    ]);
    expect(rows[0]).not.toHaveProperty('fields.sku');
    const listed = await mapRows(SHOPIFY, [['cap', 'Cap', '', '', '', '', '5', '', '']], {
      fields: ['sku', 'name', 'price'],
    });
    expect(listed[0]).toMatchObject({
      kind: 'upsert',
      key: 'shopify:cap',
      fields: { name: 'Cap', price: 5 },
    });
    expect(listed[0]).not.toHaveProperty('fields.sku');
  });

  it('keeps derived keys apart: two variants deriving the same key are a duplicate', async () => {
    const rows = await mapRows(SHOPIFY, [
      ['cap', 'Cap', '', '', '', '', '5', '', ''],
      ['cap', 'Cap', '', '', '', '', '6', '', ''],
    ]);
    expect(rows[1]).toMatchObject({
      kind: 'invalid',
      key: 'shopify:cap',
      reason: expect.stringMatching(
        /^its key shopify:cap, made from the handle "cap", without option values, is row 1's too/,
      ),
    });
  });

  it('does not call a compare-at price below the price a sale', async () => {
    const [row] = await mapRows(SHOPIFY, [['p', 'Pants', 'Size', '28', '', 'P28', '95', '64.95', '']]);
    expect(row).toMatchObject({ fields: { price: 95 } });
    expect(row).not.toHaveProperty('fields.sale_price');
  });

  it('reads float noise in a price as the decimal it stands for, also when comparing compare-at', async () => {
    const rows = await mapRows(SHOPIFY, [
      ['p', 'Pants', 'Size', '28', '', 'P28', '20.000000000000004', '20', ''],
      ['q', 'Quilt', 'Size', 'L', '', 'Q-L', '64.94999999999999', '95.00000000000001', ''],
    ]);
    expect(rows[0]).toMatchObject({ fields: { price: 20 } });
    expect(rows[0]).not.toHaveProperty('fields.sale_price');
    expect(rows[1]).toMatchObject({ fields: { price: 95, sale_price: 64.95 } });
  });

  it('compares compare-at and price in the style of the file, as they are sent', async () => {
    // A ;-file with decimal commas (a spreadsheet's re-save), prices of a 3-decimal currency.
    const rows = await mapRows(
      SHOPIFY,
      [
        ['p', 'Pants', 'Size', '28', '', 'P28', '12,5', '15', ''],
        ['q', 'Quilt', 'Size', 'L', '', 'Q-L', '1,500', '2', ''],
      ],
      { delimiter: ';', priceDecimals: 3 },
    );
    expect(rows[0]).toMatchObject({ fields: { price: 15, sale_price: 12.5 } });
    // Before: 1,500 compared as 1500, "not above the price": the sale was lost and 1.5 sent as the price.
    expect(rows[1]).toMatchObject({ fields: { price: 2, sale_price: 1.5 } });
    expect(rows[1]).not.toHaveProperty('notes');
  });

  it('refuses the row when compare-at or price reads two ways in a file that shows both styles', async () => {
    const rows = await mapRows(SHOPIFY, [
      ['p', 'Pants', 'Size', '28', '', 'P28', '12,5', '', ''],
      ['q', 'Quilt', 'Size', 'L', '', 'Q-L', '12.50', '', ''],
      ['r', 'Rug', 'Size', 'L', '', 'R-L', '1,500', '2', ''],
    ]);
    expect(rows[2]).toMatchObject({
      kind: 'invalid',
      reason: expect.stringMatching(/^ambiguous sale_price "1,500"/),
    });
  });

  it('reports a row without Handle as invalid', async () => {
    const rows = await mapRows(SHOPIFY, [['', 'X', '', '', '', 'X1', '5', '', '']]);
    expect(rows).toMatchObject([{ kind: 'invalid', reason: 'missing Handle' }]);
  });
});

const WOO = [
  'ID',
  'Type',
  'SKU',
  'Name',
  'Regular price',
  'Sale price',
  'Parent',
  'Grouped products',
  'Attribute 1 value(s)',
];

describe('woocommerce', () => {
  it('sends the regular price as price and the sale price as sale_price', async () => {
    const [row] = await mapRows(WOO, [['1', 'simple', 'S1', 'Cap', '18', '16', '', '', '']]);
    expect(row).toMatchObject({
      kind: 'upsert',
      fields: { sku: 'S1', name: 'Cap', price: 18, sale_price: 16 },
    });
  });

  it('merges a variable parent into its first variation, found by id:NN or by SKU', async () => {
    const rows = await mapRows(WOO, [
      ['44', 'variable', 'tee', 'Tee', '', '', '', '', 'Red, Blue'],
      ['45', 'variation', '', '', '20', '', 'id:44', '', 'Red'],
      ['46', 'variation', 'tee-blue', '', '21', '', 'tee', '', 'Blue'],
    ]);
    expect(rows.map((row) => row.kind)).toEqual(['merged', 'upsert', 'upsert']);
    expect(rows[0]).toMatchObject({ row: 1, key: 'tee', intoRow: 2 });
    expect(rows[1]).toMatchObject({ key: 'woocommerce:id:45', fields: { name: 'Tee - Red', price: 20 } });
    expect(rows[1]).not.toHaveProperty('fields.sku');
    expect(rows[1]).toMatchObject({ notes: ['key derived (no SKU): woocommerce:id:45, not sent as sku'] });
    expect(rows[2]).toMatchObject({ key: 'tee-blue', fields: { sku: 'tee-blue', name: 'Tee - Blue' } });
  });

  it('skips a variable product without variations at the end: a parent is not sold on its own', async () => {
    const rows = await mapRows(WOO, [['44', 'variable', 'tee', 'Tee', '', '', '', '', '']]);
    expect(rows).toMatchObject([
      { kind: 'skipped', key: 'tee', reason: expect.stringContaining('has no variations') },
    ]);
  });

  it('merges a parent that comes after its variation into that variation', async () => {
    const rows = await mapRows(WOO, [
      ['', 'variation', 'v1', 'V1', '5', '', 'tee', '', ''],
      ['', 'variable', 'tee', 'Tee', '', '', '', '', ''],
    ]);
    expect(rows[0]).toMatchObject({
      kind: 'upsert',
      notes: ['parent "tee" is not in this file before this variation'],
    });
    expect(rows[1]).toMatchObject({ kind: 'merged', intoRow: 1 });
  });

  it('skips a grouped product (its items are rows of their own) and an external one (sold elsewhere)', async () => {
    const rows = await mapRows(WOO, [
      ['', 'grouped', 'G', 'Set', '', '', '', 'A, B', ''],
      ['', 'external', '', 'Plugin', '199', '', '', '', ''],
    ]);
    expect(rows).toEqual([
      {
        kind: 'skipped',
        row: 1,
        line: 2,
        key: 'G',
        reason:
          'grouped product: a set of products sold one by one, not a product of its own; its items (A, B) are rows of their own',
      },
      {
        kind: 'skipped',
        row: 2,
        line: 3,
        key: 'woocommerce:plugin',
        reason:
          'external (affiliate) product: sold on another site, not by this store (--include-external sends it)',
      },
    ]);
  });
});

describe('magento', () => {
  const MAGENTO = ['sku', 'store_view_code', 'product_type', 'name', 'price', 'qty'];

  it('merges store-view rows into the default row with a reason naming the store view', async () => {
    const rows = await mapRows(MAGENTO, [
      ['S1', '', 'simple', 'Strap', '14', '100.0000'],
      ['S1', 'de', 'simple', 'Gurt', '', ''],
    ]);
    expect(rows[0]).toMatchObject({ kind: 'upsert', fields: { name: 'Strap', price: 14, quantity: 100 } });
    expect(rows[1]).toEqual({
      kind: 'merged',
      row: 2,
      line: 3,
      key: 'S1',
      intoRow: 1,
      reason: 'translation for store view "de": merged into the default row 1',
    });
  });

  it('reports a store-view row before its default row as invalid', async () => {
    const rows = await mapRows(MAGENTO, [['S1', 'fr', 'simple', 'Sangle', '', '']]);
    expect(rows[0]).toMatchObject({
      kind: 'invalid',
      reason: expect.stringContaining('comes before its default row'),
    });
  });
});

describe('etsy', () => {
  const ETSY = ['TITLE', 'PRICE', 'CURRENCY_CODE', 'QUANTITY', 'IMAGE1', 'IMAGE2', 'SKU'];

  it('keys a listing without SKU by its title, with a note', async () => {
    const [row] = await mapRows(ETSY, [
      ['Froggy Squishy 🐸 | Handmade', '19.95', 'AUD', '4', 'a.jpg', 'b.jpg', ''],
    ]);
    expect(row).toMatchObject({
      kind: 'upsert',
      key: 'etsy:froggy-squishy-handmade',
      fields: {
        name: 'Froggy Squishy 🐸 | Handmade',
        price: 19.95,
        currency: 'AUD',
        images: ['a.jpg', 'b.jpg'],
      },
      notes: ['key derived from the title (no SKU): etsy:froggy-squishy-handmade, not sent as sku'],
    });
    expect(row).not.toHaveProperty('fields.sku');
  });

  it("sends a listing's own SKU, and keys it by that", async () => {
    const [row] = await mapRows(ETSY, [['Mug', '9', 'EUR', '1', '', '', 'MUG-1']]);
    expect(row).toMatchObject({ kind: 'upsert', key: 'MUG-1', fields: { sku: 'MUG-1', name: 'Mug' } });
    expect(row).not.toHaveProperty('notes');
  });

  it('does not use a derived key when matching by another field', async () => {
    const rows = await mapRows(ETSY, [['Mug', '9', 'EUR', '1', '', '', '']], { matchBy: 'name' });
    expect(rows[0]).toMatchObject({ kind: 'upsert', key: 'Mug', fields: { name: 'Mug' } });
    expect(rows[0]).not.toHaveProperty('fields.sku');
  });
});

describe('amazon', () => {
  it('finds the header after the template rows and merges those rows into it', async () => {
    const columns = ['TemplateType=fptcustom', 'Version=2021.1', 'TemplateSignature=X'];
    const rows = await mapRows(columns, [
      ['SKU', 'Product Name', 'Price'],
      ['item_sku', 'item_name', 'standard_price'],
      ['A-1', 'Mug', '9.99'],
    ]);
    expect(rows.map((row) => row.kind)).toEqual(['merged', 'merged', 'upsert']);
    expect(rows[0]).toMatchObject({ intoRow: 2, reason: 'Amazon template row before the header (row 2)' });
    expect(rows[2]).toMatchObject({ key: 'A-1', fields: { name: 'Mug', price: 9.99 } });
  });

  it('lends a parent name to its children and reports a Delete row as invalid', async () => {
    const rows = await mapRows(
      [
        'item_sku',
        'item_name',
        'parent_child',
        'parent_sku',
        'color_name',
        'standard_price',
        'update_delete',
      ],
      [
        ['P', 'Tee', 'parent', '', '', '', 'Update'],
        ['C1', '', 'child', 'P', 'Red', '10', 'Update'],
        ['C2', 'Old', '', '', '', '5', 'Delete'],
      ],
    );
    expect(rows[0]).toMatchObject({ kind: 'merged', intoRow: 2 });
    expect(rows[1]).toMatchObject({ kind: 'upsert', fields: { name: 'Tee - Red', price: 10 } });
    expect(rows[2]).toMatchObject({
      kind: 'invalid',
      reason: 'update_delete is Delete: the Seller API has no delete',
    });
  });
});

describe('ebay', () => {
  it('reads File Exchange headers, and an End action is invalid', async () => {
    const columns = [
      '*Action(SiteID=US|Country=US|Currency=USD|Version=1193)',
      'CustomLabel',
      '*Title',
      '*StartPrice',
      '*Quantity',
      'PicURL',
    ];
    const rows = await mapRows(columns, [
      ['Add', 'E-1', 'Card', '$12.50', '2', 'a.jpg|b.jpg'],
      ['End', 'E-2', 'Old', '', '', ''],
    ]);
    expect(rows[0]).toMatchObject({
      kind: 'upsert',
      fields: { sku: 'E-1', name: 'Card', price: 12.5, quantity: 2, images: ['a.jpg', 'b.jpg'] },
    });
    expect(rows[1]).toMatchObject({
      kind: 'invalid',
      reason: 'eBay action End: the Seller API has no delete',
    });
  });
});

describe('google merchant', () => {
  it('splits price and currency, and the offer id is the sku', async () => {
    const [row] = await mapRows(
      ['g:id', 'g:title', 'g:price', 'g:sale_price', 'g:image_link', 'g:gtin'],
      [['G-1', 'Плоча', '12.50 EUR', '10.00 EUR', 'a.png', '4006381333931']],
    );
    expect(row).toMatchObject({
      kind: 'upsert',
      key: 'G-1',
      fields: {
        sku: 'G-1',
        name: 'Плоча',
        price: 12.5,
        sale_price: 10,
        currency: 'EUR',
        images: ['a.png'],
        barcode: '4006381333931',
      },
    });
  });
});
