import { describe, expect, it } from 'vitest';
import { mapRows } from './map-rows.js';

describe('shopware 6 variants', () => {
  const COLUMNS = [
    'id',
    'parent_id',
    'product_number',
    'active',
    'name',
    'price_net',
    'price_gross',
    'tax_rate',
    'manufacturer_name',
  ];

  it('merges the parent into its first variant; variants inherit what they leave blank, state too', async () => {
    const rows = await mapRows(COLUMNS, [
      ['p1', '', 'TEE', '0', 'Tee', '16.81', '20', '19', 'Acme'],
      ['v1', 'p1', 'TEE-S', '', '', '', '', '', ''],
      ['v2', 'p1', 'TEE-M', '1', 'Tee M', '', '22', '', ''],
      ['x1', '', 'MUG', '1', 'Mug', '8.40', '10', '19', ''],
    ]);
    expect(rows.map((row) => [row.row, row.kind])).toEqual([
      [1, 'merged'],
      [2, 'upsert'],
      [3, 'upsert'],
      [4, 'upsert'],
    ]);
    expect(rows[0]).toMatchObject({ key: 'TEE', intoRow: 2 });
    expect(rows[1]).toMatchObject({
      key: 'TEE-S',
      fields: { name: 'Tee', price: 20, brand: 'Acme', status: 'draft' },
    });
    expect(rows[2]).toMatchObject({ key: 'TEE-M', fields: { name: 'Tee M', price: 22, status: 'draft' } });
  });

  it('adds the row’s own tax rate to a net price when gross prices are asked for', async () => {
    const rows = await mapRows(
      COLUMNS,
      [
        ['a', '', 'A', '1', 'Apple', '4.67', '', '7', ''],
        ['b', '', 'B', '1', 'Bread', '10', '11.90', '19', ''],
      ],
      { priceIncludesTax: true },
    );
    expect(rows.map((row) => (row.kind === 'upsert' ? row.fields.price : row.kind))).toEqual([5, 11.9]);
  });

  it('without the flag, a net price without a gross one is sent as it is', async () => {
    const [row] = await mapRows(COLUMNS, [['a', '', 'A', '1', 'Apple', '4.67', '', '7', '']]);
    expect(row).toMatchObject({ fields: { price: 4.67 } });
  });

  it('keys a product without product_number by Shopware’s id, not sent as sku', async () => {
    const [row] = await mapRows(COLUMNS, [['abc', '', '', '1', 'Apple', '', '5', '7', '']]);
    expect(row).toMatchObject({
      kind: 'upsert',
      key: 'shopware:id:abc',
      fields: { name: 'Apple', price: 5 },
    });
    expect(row).not.toHaveProperty('fields.sku');
  });
});

describe('bigcommerce exports', () => {
  it('legacy template: SKU rows are products named by their options; the Product row merged; a Rule skipped', async () => {
    const rows = await mapRows(
      [
        'Item Type',
        'Product ID',
        'Product Name',
        'Product Code/SKU',
        'Price',
        'Current Stock Level',
        'Product Visible?',
        'Allow Purchases?',
        'Category',
      ],
      [
        ['Product', '31', 'Hoodie', 'HOOD', '40', '', 'Y', 'Y', 'Tops'],
        ['  SKU', '', '[S]Size=Small', 'HOOD-S', '', '3', '', '', ''],
        ['  SKU', '', '[S]Size=Large', 'HOOD-L', '42', '1', '', '', ''],
        ['  Rule', '', '', '', '', '', '', '', ''],
        ['Product', '32', 'Cap', '', '9', '5', 'N', 'Y', 'Hats'],
      ],
    );
    expect(rows.map((row) => [row.row, row.kind])).toEqual([
      [1, 'merged'],
      [2, 'upsert'],
      [3, 'upsert'],
      [4, 'skipped'],
      [5, 'upsert'],
    ]);
    expect(rows[1]).toMatchObject({
      key: 'HOOD-S',
      fields: { name: 'Hoodie - Small', price: 40, quantity: 3, category: 'Tops', status: 'active' },
    });
    expect(rows[2]).toMatchObject({ key: 'HOOD-L', fields: { name: 'Hoodie - Large', price: 42 } });
    expect(rows[4]).toMatchObject({
      key: 'bigcommerce:id:32',
      fields: { name: 'Cap', price: 9, status: 'hidden' },
      notes: [
        'key derived (no SKU): bigcommerce:id:32, not sent as sku',
        'sent with status hidden: BigCommerce visible N',
      ],
    });
    expect(rows[4]).not.toHaveProperty('fields.sku');
  });

  it('modern export: Variant rows with options, Image rows add to the gallery', async () => {
    const rows = await mapRows(
      [
        'Item',
        'ID',
        'Name',
        'SKU',
        'Options',
        'Price',
        'Sale Price',
        'Current Stock',
        'Is Visible',
        'Image URL',
      ],
      [
        ['Product', '77', 'Mug', 'MUG', '', '12', '0', '', 'TRUE', ''],
        ['Variant', '901', '', 'MUG-R', 'Type=Swatch|Name=Color|Value=Red', '', '', '4', '', ''],
        ['Image', '', '', '', '', '', '', '', '', 'https://cdn.example/mug.jpg'],
      ],
    );
    expect(rows.map((row) => row.kind)).toEqual(['merged', 'upsert', 'merged']);
    expect(rows[1]).toMatchObject({
      key: 'MUG-R',
      fields: {
        name: 'Mug - Red',
        price: 12,
        quantity: 4,
        images: ['https://cdn.example/mug.jpg'],
        status: 'active',
      },
    });
    expect(rows[1]).not.toHaveProperty('fields.sale_price');
  });
});
