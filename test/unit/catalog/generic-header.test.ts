import { describe, expect, it } from 'vitest';
import { genericHeader } from '../../../src/catalog/presets/generic-header.js';
import { OpenKeys, readName } from '../../../src/catalog/presets/generic-keys.js';

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
    const header = genericHeader(['sku', 'quantiy', 'pirce', 'descripton']);
    expect(header.localized).toBeUndefined();
    expect(header.lines).toEqual([
      `columns sent under their own name, near a product field: quantiy (quantity?), pirce (price?), descripton (description?)${NEAR_HINT} (quantity: quantiy; docs/sources.md)`,
    ]);
  });

  it("says a column near another platform's word, or a field under a product prefix, with the word", () => {
    // No hint before: every row was `missing name for a new product`, nothing pointing at Titel.
    const header = genericHeader(['sku', 'Stok', 'Titel', 'Qtty', 'EAN13', 'Product Name', 'price']);
    expect(header.localized).toBeUndefined();
    expect(header.lines).toEqual([
      `columns sent under their own name, near a product field: Stok (stock → quantity?), Titel (title → name?), Qtty (qty → quantity?), EAN13 (ean → barcode?), Product Name (name?)${NEAR_HINT} (quantity: Stok; docs/sources.md)`,
    ]);
    expect(genericHeader(['sku', 'name', 'Titel', 'Product Name']).lines).toEqual([]);
  });

  it('says nothing of an attribute word or a numbered field, however near a field', () => {
    // `height (weight?)`, followed, sent the heights as weights.
    expect(genericHeader(['sku', 'name', 'price', 'height', 'width', 'depth']).lines).toEqual([]);
    expect(genericHeader(['sku', 'sku2', 'price2', 'url2', 'category2', 'barcode2']).lines).toEqual([]);
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

  it("counts a mapping file's fields as given: a column near one is not said to be", () => {
    // `preset: generic` with `fields: {quantity: quantiy}` reads it already. `stock` is not read as
    // quantity then, but sent as a field of its own: said (it was not).
    const mapping = { mapped: new Map([['quantity', ['quantiy']]]), reads: new Set(['quantiy']) };
    expect(genericHeader(['sku', 'quantiy', 'stock'], mapping)).toEqual({
      lines: ['columns sent under their own name, the mapping file giving their field: stock (quantity)'],
    });
  });

  it('does not read a word the mapping file reads as a field of its own, nor say it', () => {
    // `stock: {column: stock, custom: true}`: its `In stock` is no quantity.
    const mapping = { mapped: new Map([['stock', ['stock']]]), reads: new Set(['stock']) };
    expect(genericHeader(['sku', 'stock', 'Price'], mapping)).toEqual({
      localized: {
        columns: ['sku', 'stock', 'price'],
        says: 'columns read as product fields: Price as price',
      },
      lines: [],
    });
  });

  it('does not read a field in another case that the mapping file gives from another column, and says so', () => {
    // `name: Titel`: what is sent as name is Titel; `Name` is not read as it too.
    const mapping = { mapped: new Map([['name', ['Titel']]]), reads: new Set(['Titel']) };
    expect(genericHeader(['SKU', 'Name', 'Titel'], mapping)).toEqual({
      localized: { columns: ['sku', 'Name', 'Titel'], says: 'columns read as product fields: SKU as sku' },
      lines: ['columns sent under their own name, the mapping file giving their field: Name (name)'],
    });
    // Given from the column itself (`sku: SKU`), or removed (`price: null`): read as before.
    const own = {
      mapped: new Map<string, string[] | null>([
        ['sku', ['SKU']],
        ['price', null],
      ]),
      reads: new Set(['SKU']),
    };
    expect(genericHeader(['SKU', 'Price'], own).localized?.columns).toEqual(['sku', 'price']);
  });
});

describe("the generic preset's reading of one key (a JSON record's)", () => {
  it('reads each name by itself, whatever other keys there are', () => {
    expect(readName('stock', {})).toBe('quantity');
    expect(readName('Stock', {})).toBe('quantity');
    expect(readName('EAN', {})).toBe('barcode');
    expect(readName('Price', {})).toBe('price');
    expect(readName('quantity', {})).toBe('quantity');
    expect(readName('sale', {})).toBe('sale');
    expect(readName('quantiy', {})).toBe('quantiy');
    expect(readName('Color', {})).toBe('Color');
  });

  it('works each key out once, and says the keys met, whichever record met them first', () => {
    const keys = new OpenKeys({});
    for (const key of ['sku', 'price', 'sku', 'stock', 'ean', 'stock', 'quantiy'])
      expect(keys.nameOf(key)).toBe(readName(key, {}));
    expect(keys.lines()).toEqual(['columns read as product fields: stock as quantity, ean as barcode']);
    const near = new OpenKeys({});
    near.nameOf('sku');
    near.nameOf('pirce');
    expect(near.lines()).toEqual([
      `columns sent under their own name, near a product field: pirce (price?)${NEAR_HINT} (price: pirce; docs/sources.md)`,
    ]);
  });

  it('says why a record has no name where a key met is near it, until a key gives the name', () => {
    const keys = new OpenKeys({});
    keys.nameOf('sku');
    expect(keys.unnamed()).toBeUndefined();
    keys.nameOf('Titel');
    expect(keys.unnamed()).toBe('no name key; near it: Titel (title → name?)');
    keys.nameOf('title');
    expect(keys.unnamed()).toBeUndefined();
  });
});
