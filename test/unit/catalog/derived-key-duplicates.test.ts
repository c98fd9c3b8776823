import { describe, expect, it } from 'vitest';
import type { MappedRow } from '../../../src/interfaces.js';
import { mapRows } from './map-rows.js';

/**
 * A row without SKU is keyed by what its preset derived (a slug of its name, the platform's id, a
 * handle with option values). A second row that derives the same key is invalid: its message says
 * the key was made, of what, why two rows made one, and what to do; never a "duplicate sku" the
 * seller did not give. Keys themselves are as they were (products are matched by them).
 */
const reasonOf = (row: MappedRow | undefined) =>
  row?.kind === 'invalid' ? [row.key, row.reason] : `not invalid: ${JSON.stringify(row)}`;

const WOO = ['ID', 'Type', 'SKU', 'Name', 'Regular price', 'Parent', 'Attribute 1 value(s)'];
const SHOPIFY = ['Handle', 'Title', 'Option1 Name', 'Option1 Value', 'Variant SKU', 'Variant Price'];
const PRESTASHOP = ['Product ID', 'Active (0/1)', 'Name *', 'Price tax excluded', 'Reference #'];
const BIGCOMMERCE = ['Item Type', 'Product ID', 'Product Name', 'Product Code/SKU', 'Price'];

describe('a key derived by a preset, made twice', () => {
  it('WooCommerce: of names that differ only in case or punctuation', async () => {
    const rows = await mapRows(WOO, [
      ['', 'simple', '', 'Oak Chair', '249'],
      ['', 'simple', '', 'oak-chair', '249'],
    ]);
    expect(reasonOf(rows[1])).toEqual([
      'woocommerce:oak-chair',
      `its key woocommerce:oak-chair, made from the name "oak-chair", is row 1's too (names that differ only in case or punctuation make one key): give the products a SKU, or names that differ in words`,
    ]);
  });

  it('WooCommerce: of one ID twice', async () => {
    const rows = await mapRows(WOO, [
      ['69', 'simple', '', 'Chair', '249'],
      ['69', 'simple', '', 'Chair', '249'],
    ]);
    expect(reasonOf(rows[1])).toEqual([
      'woocommerce:id:69',
      `its key woocommerce:id:69, made from the ID 69, is row 1's too (the file holds that ID twice): keep one of the rows`,
    ]);
  });

  it('WooCommerce: of one parent and the same attribute values', async () => {
    const rows = await mapRows(WOO, [
      ['', 'variation', '', '', '5', 'id:68', 'Red'],
      ['', 'variation', '', '', '6', 'id:68', 'Red'],
    ]);
    expect(reasonOf(rows[1])).toEqual([
      'woocommerce:id:68:Red',
      `its key woocommerce:id:68:Red, made from its parent "id:68" and attribute values "Red", is row 1's too (variations of one parent with the same attribute values make one key): give the variations a SKU, or attribute values of their own`,
    ]);
  });

  it('Shopify: of one handle with the same option values, or none', async () => {
    const rows = await mapRows(SHOPIFY, [
      ['shirt', 'Shirt', 'Size', 'S', '', '10'],
      ['shirt', '', 'Size', 'S', '', '11'],
      ['cap', 'Cap', '', '', '', '5'],
      ['cap', '', '', '', '', '6'],
    ]);
    expect(reasonOf(rows[1])).toEqual([
      'shopify:shirt:S',
      `its key shopify:shirt:S, made from the handle "shirt" and option values "S", is row 1's too (variants of one handle with the same option values make one key): give the variants a Variant SKU, or option values of their own`,
    ]);
    expect(reasonOf(rows[3])).toEqual([
      'shopify:cap',
      `its key shopify:cap, made from the handle "cap", without option values, is row 3's too (variants of one handle with the same option values make one key): give the variants a Variant SKU, or option values of their own`,
    ]);
  });

  it('PrestaShop: of a name, else of one Product ID twice; the fix names its Reference #', async () => {
    const rows = await mapRows(PRESTASHOP, [
      ['', '1', 'Mug', '5', ''],
      ['', '1', 'MUG!', '5', ''],
      ['7', '1', 'Cup', '5', ''],
      ['7', '1', 'Cup', '5', ''],
    ]);
    expect(reasonOf(rows[1])).toEqual([
      'prestashop:mug',
      `its key prestashop:mug, made from the name "MUG!", is row 1's too (names that differ only in case or punctuation make one key): give the products a Reference #, or names that differ in words`,
    ]);
    expect(reasonOf(rows[3])).toEqual([
      'prestashop:id:7',
      `its key prestashop:id:7, made from the Product ID 7, is row 3's too (the file holds that Product ID twice): keep one of the rows`,
    ]);
  });

  it('Shopware: of one id twice', async () => {
    const rows = await mapRows(
      ['id', 'product_number', 'name', 'price_gross', 'tax_rate'],
      [
        ['0a1b', '', 'Lamp', '10', '19'],
        ['0c2d', '', 'Desk', '10', '19'],
        ['0a1b', '', 'Lamp', '10', '19'],
      ],
    );
    expect(reasonOf(rows[2])).toEqual([
      'shopware:id:0a1b',
      `its key shopware:id:0a1b, made from the id 0a1b, is row 1's too (the file holds that id twice): keep one of the rows`,
    ]);
  });

  it('BigCommerce: of a name, and of a product and the same option values', async () => {
    const rows = await mapRows(BIGCOMMERCE, [
      ['Product', '', 'Desk Lamp', '', '9'],
      ['Product', '', 'Desk-Lamp', '', '9'],
      ['Product', '31', 'Hoodie', '', '40'],
      ['  SKU', '', '[S]Size=Small', '', ''],
      ['  SKU', '', '[S]Size=Small', '', ''],
    ]);
    expect(reasonOf(rows[1])).toEqual([
      'bigcommerce:desk-lamp',
      `its key bigcommerce:desk-lamp, made from the name "Desk-Lamp", is row 1's too (names that differ only in case or punctuation make one key): give the products a SKU, or names that differ in words`,
    ]);
    expect(reasonOf(rows[4])).toEqual([
      'bigcommerce:id:31:Small',
      `its key bigcommerce:id:31:Small, made from its product's ID 31 and option values "Small", is row 4's too (variants of one product with the same option values make one key): give the variants a SKU, or option values of their own`,
    ]);
  });

  it('Etsy: of one listing id twice', async () => {
    const rows = await mapRows(
      ['TITLE', 'PRICE', 'CURRENCY_CODE', 'SKU', 'LISTING_ID'],
      [
        ['Bowl', '10', 'USD', '', '123'],
        ['Bowl, blue', '10', 'USD', '', '123'],
      ],
    );
    expect(reasonOf(rows[1])).toEqual([
      'etsy:123',
      `its key etsy:123, made from the listing id 123, is row 1's too (the file holds that listing id twice): keep one of the rows`,
    ]);
  });

  it('a key the file gives is still a duplicate sku', async () => {
    const rows = await mapRows(WOO, [
      ['', 'simple', 'A-1', 'Chair', '249'],
      ['', 'simple', 'A-1', 'Stool', '20'],
    ]);
    expect(reasonOf(rows[1])).toEqual(['A-1', 'duplicate sku "A-1": first seen in row 1']);
  });
});
