import { describe, expect, it } from 'vitest';
import { nearField } from '../../../src/catalog/near-field.js';

// A header `sku,Stok,Titel,Qtty,EAN13,Product Name,price` got no hint at all: the summary measured
// names against the tool's own fields only, and every row was `missing name for a new product`.
describe('the product field a column sent under its own name is near', () => {
  it.each([
    ['Stok', 'quantity', 'stock'],
    ['Titel', 'name', 'title'],
    ['titre', 'name', 'title'],
    ['Qtty', 'quantity', 'qty'],
    ['inventroy', 'quantity', 'inventory'],
    ['manufacturor', 'brand', 'manufacturer'],
  ])("%s is another platform's word misspelt: %s, as %s", (name, field, word) => {
    expect(nearField(name)).toEqual({ field, word });
  });

  it.each([
    ['Product Name', 'name'],
    ['product_name', 'name'],
    ['Item Price', 'price'],
    ['productDescription', 'description'],
  ])('%s is a field under a product prefix: %s', (name, field) => {
    expect(nearField(name)).toEqual({ field });
  });

  it("names the word a prefixed platform's word stands for", () => {
    expect(nearField('Product Title')).toEqual({ field: 'name', word: 'title' });
  });

  it.each([
    ['quantiy', 'quantity'],
    ['Price', 'price'],
    ['stock', 'quantity'],
    ['sale', 'sale_price'],
  ])('%s is near %s as before (a typo, another case, a word)', (name, field) => {
    expect(nearField(name)).toEqual({ field });
  });

  // A barcode column named by its standard (ERP and wholesaler exports) is the barcode, not a second
  // one: hinted at, where a numbered field (`price2`) is not.
  it.each([
    ['EAN13', 'ean'],
    ['ean-13', 'ean'],
    ['GTIN14', 'gtin'],
    ['UPC-A', 'upc'],
    ['ISBN 10', 'isbn'],
  ])('%s is the barcode, as %s', (name, word) => {
    expect(nearField(name)).toEqual({ field: 'barcode', word });
  });

  it.each([
    // Attribute words and numbered fields (a second price).
    'height',
    'Width',
    'price2',
    'min',
    // A short word misspelt is mostly another word: tax is not tag, sales not sale, line not link.
    'tax',
    'sales',
    'line',
    'sole',
    'scale',
    'mean',
    // Far from every field and word; a prefix before no field.
    'material',
    'Product ID',
    'item_type',
    // A product field itself (`images` is one letter from another platform's `image`).
    'sku',
    'images',
  ])('%s is near none', (name) => {
    expect(nearField(name)).toBeNull();
  });
});
