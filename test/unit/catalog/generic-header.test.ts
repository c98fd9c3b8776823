import { describe, expect, it } from 'vitest';
import { genericHeader } from '../../../src/catalog/presets/generic-header.js';

const NEAR_HINT = ': rename it, or read it with a mapping file';

describe("the generic preset's header", () => {
  it('reads nothing anew in a header of product fields and names far from them', () => {
    expect(genericHeader(['sku', 'name', 'price', 'Color', 'material'])).toEqual({ lines: [] });
  });

  it("reads another platform's word for a product field, in any case, as that field, and says so", () => {
    // Sent as written, `stock` was a text field of that name and the product's quantity never changed.
    const header = genericHeader(['sku', 'name', 'price', 'stock']);
    expect(header.localized).toEqual({
      columns: ['sku', 'name', 'price', 'quantity'],
      says: 'columns read as product fields: stock as quantity',
    });
    expect(header.lines).toEqual([]);
    expect(genericHeader(['SKU', 'Title', 'Qty', 'EAN']).localized).toEqual({
      columns: ['sku', 'name', 'quantity', 'barcode'],
      says: 'columns read as product fields: SKU as sku, Title as name, Qty as quantity, EAN as barcode',
    });
  });

  it.each([
    ['stock', 'quantity'],
    ['qty', 'quantity'],
    ['inventory', 'quantity'],
    ['inventory_quantity', 'quantity'],
    ['stock_quantity', 'quantity'],
    ['quantity_available', 'quantity'],
    ['title', 'name'],
    ['body_html', 'description'],
    ['special_price', 'sale_price'],
    ['manufacturer', 'brand'],
    ['gtin', 'barcode'],
    ['ean', 'barcode'],
    ['upc', 'barcode'],
    ['isbn', 'barcode'],
    ['tag', 'tags'],
    ['enabled', 'active'],
  ])('reads %s as %s (its values are what the field reads)', (column, field) => {
    expect(genericHeader(['sku', column]).localized?.columns).toEqual(['sku', field]);
  });

  it.each([
    // A flag or a percentage (`1` would be a sale price of 1).
    ['sale', 'sale_price'],
    // A date as often as a yes or no; WooCommerce writes -1.
    ['published', 'active'],
    // One URL, often the main image only: images replaces the list, and a comma in a URL splits it.
    ['image', 'images'],
    ['image_url', 'images'],
    // Any link: an affiliate's, a supplier's page.
    ['link', 'url'],
    // `simple`, `configurable`: the product's type in WooCommerce and Magento.
    ['product_type', 'category'],
    // Several, comma-separated: category takes one.
    ['categories', 'category'],
    // The supplier in an ERP's export.
    ['vendor', 'brand'],
    // A garment (a bodysuit) as often as a text.
    ['body', 'description'],
  ])('leaves %s under its own name, and says it is near %s', (column, field) => {
    const header = genericHeader(['sku', column]);
    expect(header.localized).toBeUndefined();
    expect(header.lines).toEqual([
      `columns sent under their own name, near a product field: ${column} (${field}?)${NEAR_HINT} (${field}: ${column}; docs/sources.md)`,
    ]);
  });

  it('reads none of them when another column names the field, and says which column is read', () => {
    // Exactly, or in another case (the case is read first).
    const exact = genericHeader(['sku', 'quantity', 'stock']);
    expect(exact.localized).toBeUndefined();
    expect(exact.lines).toEqual([
      'columns sent under their own name, another column read as their field: stock (quantity from quantity)',
    ]);
    const folded = genericHeader(['sku', 'Stock', 'Quantity']);
    expect(folded.localized).toEqual({
      columns: ['sku', 'Stock', 'quantity'],
      says: 'columns read as product fields: Quantity as quantity',
    });
    expect(folded.lines).toEqual([
      'columns sent under their own name, another column read as their field: Stock (quantity from Quantity)',
    ]);
  });

  it('reads neither of two words for one field: the summary names both as near it', () => {
    const header = genericHeader(['sku', 'stock', 'qty', 'title']);
    expect(header.localized).toEqual({
      columns: ['sku', 'stock', 'qty', 'name'],
      says: 'columns read as product fields: title as name',
    });
    expect(header.lines).toEqual([
      `columns sent under their own name, near a product field: stock (quantity?), qty (quantity?)${NEAR_HINT} (quantity: stock; docs/sources.md)`,
    ]);
  });

  it('does not read a name one edit from a product field as the field, but says it is near it', () => {
    // `height` is one letter from `weight`: a misspelling cannot be told from another field.
    const header = genericHeader(['sku', 'quantiy', 'pirce', 'height']);
    expect(header.localized).toBeUndefined();
    expect(header.lines).toEqual([
      `columns sent under their own name, near a product field: quantiy (quantity?), pirce (price?), height (weight?)${NEAR_HINT} (quantity: quantiy; docs/sources.md)`,
    ]);
  });

  it('says nothing of a near name whose field another column gives', () => {
    expect(genericHeader(['sku', 'price', 'Price', 'prices', 'stock', 'quantiy'])).toEqual({
      localized: {
        columns: ['sku', 'price', 'Price', 'prices', 'quantity', 'quantiy'],
        says: 'columns read as product fields: stock as quantity',
      },
      lines: [],
    });
  });

  it('leaves the column the run matches by under its own name', () => {
    // `--match-by ean`: the products are found by their own `ean` field.
    expect(genericHeader(['ean', 'stock'], { matchBy: 'ean' }).localized).toEqual({
      columns: ['ean', 'quantity'],
      says: 'columns read as product fields: stock as quantity',
    });
  });

  it('reads a column named as the --match-by field in another case as that field, not by its word', () => {
    // `EAN` with `--match-by ean`: read as barcode, no column gave ean and the run was refused.
    expect(genericHeader(['EAN', 'Title', 'Price', 'Stock'], { matchBy: 'ean' }).localized).toEqual({
      columns: ['ean', 'name', 'price', 'quantity'],
      says: 'columns read as product fields: EAN as ean, Title as name, Price as price, Stock as quantity',
    });
    // A column named so exactly is the one matched by: the other is not read as ean too.
    expect(genericHeader(['ean', 'EAN'], { matchBy: 'ean' }).localized?.columns[1]).not.toBe('ean');
  });

  it("counts a mapping file's fields as given: a column near one is not said to be", () => {
    // `preset: generic` with `fields: {quantity: quantiy}` reads it already.
    expect(genericHeader(['sku', 'quantiy', 'stock'], { mapped: ['quantity'] })).toEqual({ lines: [] });
  });
});
