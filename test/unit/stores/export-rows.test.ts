import { describe, expect, it } from 'vitest';
import { exportRows } from '../../../src/sources/stores/shopify/export-rows.js';
import {
  categoryPaths,
  productRow,
  variationRow,
} from '../../../src/sources/stores/woocommerce/export-rows.js';

describe("a Shopify product as its export's rows", () => {
  const product = (weight: { unit: string; value: number }) =>
    exportRows({
      product: {
        id: 'gid://shopify/Product/1',
        handle: 'h',
        title: 'T',
        status: 'ACTIVE',
        options: [{ name: 'Title', position: 1 }],
      },
      variants: [
        {
          id: 'gid://shopify/ProductVariant/2',
          price: '1.00',
          selectedOptions: [{ name: 'Title', value: 'Default Title' }],
          inventoryItem: { tracked: false, measurement: { weight } },
        },
      ],
      images: [],
    })[0]!;

  it.each([
    ['GRAMS', 283.4952313, '283.4952313'],
    ['KILOGRAMS', 0.25, '250'],
    ['OUNCES', 10, '283.49523125'],
    ['POUNDS', 2, '907.18474'],
  ])('a weight in %s is written in grams, as Variant Grams', (unit, value, grams) => {
    expect(product({ unit, value })['Variant Grams']).toBe(grams);
  });

  it('an untracked variant has a blank tracker: the preset does not send its quantity', () => {
    expect(product({ unit: 'GRAMS', value: 1 })['Variant Inventory Tracker']).toBe('');
  });
});

describe("a WooCommerce product as its export's row", () => {
  it('the sale price with its dates, as the export writes them (the preset judges the sale, as for the export)', () => {
    const item = (from: string | null, to: string | null, sale = '8') =>
      productRow(
        {
          id: 1,
          type: 'simple',
          status: 'publish',
          regular_price: '10',
          sale_price: sale,
          date_on_sale_from_gmt: from,
          date_on_sale_to_gmt: to,
        },
        new Map(),
      );
    expect(item(null, null)).toMatchObject({
      'Sale price': '8',
      'Date sale price starts': '',
      'Date sale price ends': '',
    });
    // An ended sale keeps its price in the row: the preset leaves it out with its note, and ends it.
    expect(item('2026-05-01T00:00:00', '2026-05-31T23:59:59')).toMatchObject({
      'Sale price': '8',
      'Date sale price starts': '2026-05-01 00:00:00',
      'Date sale price ends': '2026-05-31 23:59:59',
    });
    expect(item('2026-07-01T00:00:00+02:00', 'not a date', '')).toMatchObject({
      'Sale price': '',
      'Date sale price starts': '2026-06-30 22:00:00',
      'Date sale price ends': '',
    });
  });

  it('Published is 1, 0 or -1 as the exporter writes it; the stock only where it is managed', () => {
    const row = (status: string, manage: boolean | 'parent') =>
      variationRow(
        {
          id: 5,
          status,
          manage_stock: manage,
          stock_quantity: 3,
          stock_status: 'onbackorder',
          attributes: [{ name: 'Size', option: 'M' }],
        },
        { id: 4 },
      );
    expect(row('publish', true)).toMatchObject({
      Published: '1',
      Stock: '3',
      'In stock?': 'backorder',
      Parent: 'id:4',
      'Attribute 1 value(s)': 'M',
    });
    expect(row('private', 'parent')).toMatchObject({ Published: '0', Stock: '3' });
    expect(row('draft', false)).toMatchObject({ Published: '-1', Stock: '' });
  });

  it("a variation's SKU that is its parent's (the API's stand-in for none) is blank, as the export writes it", () => {
    const parent = { id: 2, type: 'variable', sku: 'TEE' };
    const row = (sku: string) => variationRow({ id: 3, status: 'publish', sku }, parent).SKU;
    expect(row('TEE')).toBe('');
    expect(row('TEE-S')).toBe('TEE-S');
    expect(row('')).toBe('');
    expect(variationRow({ id: 3, status: 'publish', sku: 'TEE' }, { id: 2, sku: '' }).SKU).toBe('TEE');
  });

  it('category paths follow parents, and a loop of parents ends', () => {
    const paths = categoryPaths([
      { id: 1, name: 'Home', parent: 0 },
      { id: 2, name: 'Decor', parent: 1 },
      { id: 3, name: 'A', parent: 4 },
      { id: 4, name: 'B', parent: 3 },
    ]);
    expect(paths.get(2)).toBe('Home > Decor');
    expect(paths.get(3)).toBe('B > A');
  });
});
