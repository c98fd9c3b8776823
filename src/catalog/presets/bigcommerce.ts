import type { SourceRecord } from '../../interfaces.js';
import { type Columns, put, slug } from './columns.js';
import { fromId, fromName, fromVariant, type KeyDerivation } from './key-derivation.js';
import type { Draft, Preset, RawFields, RowMapper, SourceState } from './types.js';

/**
 * BigCommerce product CSV: the admin export (modern: `Item` Product/Variant/Image/Video, `ID`,
 * `Name`, `SKU`, `Current Stock`, `Is Visible`; legacy "Default" template: `Item Type`
 * Product/SKU/Rule, `Product ID`, `Product Name`, `Product Code/SKU`, `Current Stock Level`,
 * `Product Visible?`, `Allow Purchases?`), and the API-style sheets import scripts use (`Product
 * Name`, `SKU`, `Price`, `Inventory Level`, `Availability`). Comma-delimited, dot decimals.
 *
 * A product's variant rows (Variant, SKU) follow its Product row: each variant is its own product
 * here (the API has no variants), named by the product and its option values, inheriting what it
 * leaves blank; the Product row is then merged into its first variant. Image rows add their image
 * to the product; a Rule row (price rules) is skipped. Without SKU the key is BigCommerce's id,
 * `bigcommerce:id:<ID>` (a variant: `…:<option values>`), else `bigcommerce:<name slug>`: the
 * tool's own, not sent as sku.
 *
 * Published state: `Is Visible`/`Product Visible?` N is hidden, `Allow Purchases?` N is hidden
 * (shown, not sold), `Availability` disabled is hidden. Prices are as the store enters them (with
 * or without tax, a store setting the file does not carry): sent as they are; `Retail Price`
 * (MSRP) is not sent.
 */
export const bigcommerce: Preset = {
  name: 'bigcommerce',
  signature: {
    required: [['product name', 'name'], ['price']],
    distinctive: [
      'item type',
      'item',
      'product code/sku',
      'product id',
      'current stock level',
      'current stock',
      'inventory level',
      'product visible?',
      'is visible',
      'allow purchases?',
      'product availability',
      'inventory tracking',
      'bin picking number',
      'option set',
      'retail price',
    ],
  },
  decimalStyle: 'dot',
  fields: () => [
    'sku',
    'name',
    'description',
    'price',
    'sale_price',
    'quantity',
    'brand',
    'barcode',
    'mpn',
    'category',
    'images',
    'weight',
    'status',
  ],
  create: (columns) => createBigCommerceMapper(columns),
};

/** URLs only: the legacy `Product Image File - N` holds a file name on the store's server. */
const IMAGE_COLUMNS = /^(?:product image url - \d+|image url(?: \d+)?)$/;

function createBigCommerceMapper(c: Columns): RowMapper {
  const read = {
    item: c.reader('item type', 'item'),
    id: c.reader('product id', 'id'),
    name: c.reader('product name', 'name'),
    sku: c.reader('product code/sku', 'sku', 'code'),
    options: c.reader('options'),
    description: c.reader('product description', 'description'),
    price: c.reader('price'),
    sale: c.reader('sale price'),
    quantity: c.reader('current stock level', 'current stock', 'stock level', 'inventory level'),
    brand: c.reader('brand name', 'brand'),
    barcode: c.reader('product upc/ean', 'upc/ean', 'global trade number', 'gtin'),
    mpn: c.reader('manufacturer part number', 'mpn'),
    category: c.reader('category', 'categories', 'category string'),
    weight: c.reader('product weight', 'weight'),
    visible: c.reader('product visible?', 'is visible', 'product visible'),
    purchasable: c.reader('allow purchases?', 'allow purchases'),
    availability: c.reader('availability', 'product availability'),
  };
  const imageColumns = c.all.filter((column) => IMAGE_COLUMNS.test(column.trim().toLowerCase()));
  const images = (record: SourceRecord) =>
    imageColumns.map((column) => (record.values[column] ?? '').trim()).filter((url) => url !== '');
  let group: SourceRecord[] = [];

  const flush = (): Draft[] => {
    const drafts = group.length > 0 ? mapGroup(group) : [];
    group = [];
    return drafts;
  };

  const kind = (record: SourceRecord) => read.item(record).toLowerCase();
  const isProduct = (record: SourceRecord) => kind(record) === 'product' || kind(record) === '';

  function fieldsOf(record: SourceRecord): RawFields {
    const fields: RawFields = {};
    put(fields, 'sku', read.sku(record));
    put(fields, 'name', read.name(record));
    put(fields, 'description', read.description(record));
    put(fields, 'price', read.price(record));
    put(fields, 'sale_price', zeroAsNone(read.sale(record)));
    put(fields, 'quantity', read.quantity(record));
    put(fields, 'brand', read.brand(record));
    put(fields, 'barcode', read.barcode(record));
    put(fields, 'mpn', read.mpn(record));
    put(fields, 'category', read.category(record));
    put(fields, 'weight', read.weight(record));
    put(fields, 'images', images(record));
    return fields;
  }

  function mapGroup(rows: SourceRecord[]): Draft[] {
    const product = rows[0]!;
    const productFields = fieldsOf(product);
    const productState = stateOf(
      read.visible(product),
      read.purchasable(product),
      read.availability(product),
    );
    const variants = rows.filter((row) => ['variant', 'sku'].includes(kind(row)));
    const imageRows = rows.filter((row) => kind(row) === 'image');
    const gallery = imageRows.flatMap(images);
    const sellable = variants.length > 0 ? variants : [product];
    const drafts = new Map<SourceRecord, Draft>();
    for (const row of sellable) {
      const notes: string[] = [];
      const fields = row === product ? { ...productFields } : fieldsOf(row);
      const values = row === product ? [] : optionValues(read.options(row) || read.name(row));
      if (row !== product) {
        const base = typeof productFields.name === 'string' ? productFields.name : '';
        fields.name =
          values.length > 0 && base ? `${base} - ${values.join(' / ')}` : base || fields.name || '';
        for (const [field, value] of Object.entries(productFields))
          if (fields[field] === undefined && field !== 'sku') fields[field] = value;
      }
      if (gallery.length > 0) fields.images = [...new Set([...asList(fields.images), ...gallery])];
      const sku = read.sku(row);
      const id = read.id(row) || read.id(product);
      const ownId = read.id(row) !== '';
      const idKey = id
        ? `bigcommerce:id:${id}${row !== product && !ownId && values.length ? `:${values.join('/')}` : ''}`
        : '';
      const derived = sku
        ? ''
        : idKey ||
          (slug(read.name(product))
            ? `bigcommerce:${slug(read.name(product))}${values.length ? `:${values.join('/')}` : ''}`
            : '');
      const draft: Draft & { kind: 'product' } = { kind: 'product', record: row, fields, notes };
      const from = [product, ...imageRows].filter((giver) => giver !== row);
      if (from.length > 0) draft.inheritsFrom = from;
      // The row's own ID, or its product's with its option values, names it for good: its former
      // key once it has a SKU. A variant without ID nor values shares its product's: not so.
      if (idKey && (ownId || values.length > 0)) draft.platformKey = idKey;
      if (derived) {
        draft.derivedKey = derived;
        draft.derivedFrom = derivedFrom(
          row === product,
          ownId ? id : '',
          read.id(product),
          read.name(product),
          values,
        );
        notes.push(`key derived (no SKU): ${derived}, not sent as sku`);
      }
      const own = stateOf(read.visible(row), read.purchasable(row), read.availability(row));
      const state = own && own.status !== 'active' ? own : (productState ?? own);
      if (state) draft.state = state;
      drafts.set(row, draft);
    }
    const first = sellable[0]!;
    const firstKey = read.sku(first) || ((drafts.get(first) as { derivedKey?: string }).derivedKey ?? '');
    return rows.map((row): Draft => {
      const made = drafts.get(row);
      if (made) return made;
      const what = kind(row);
      if (what === 'rule')
        return {
          kind: 'skipped',
          record: row,
          key: firstKey,
          reason: 'BigCommerce product rule: not a product',
          sharesKey: true,
        };
      const reason =
        row === product
          ? `BigCommerce product with variants: each variant is its own product; merged into its first variant, row ${first.row}`
          : `BigCommerce ${what || 'continuation'} row of "${read.name(product)}": merged into row ${first.row}`;
      return { kind: 'merged', record: row, key: firstKey, intoRow: first.row, reason, sharesKey: true };
    });
  }

  return {
    push(record) {
      // A Product row (or a row of a sheet without Item column) opens a new group.
      const closing = isProduct(record) && group.length > 0 ? flush() : [];
      group.push(record);
      return closing;
    },
    end: flush,
  };
}

/** Modern `Type=Rectangle|Name=Size|Value=Small;…` or legacy `[S]Size=Small,[RB]Color=Red` → values. */
/**
 * What a row's derived key was made of: its own ID, else its product's (a variant's, with its option
 * values), else its product's name.
 */
function derivedFrom(
  isProduct: boolean,
  ownId: string,
  productId: string,
  productName: string,
  values: readonly string[],
): KeyDerivation {
  if (ownId) return fromId('ID', ownId);
  if (isProduct) return fromName('name', productName, 'SKU', 'products');
  const product = productId ? `its product's ID ${productId}` : `its product's name "${productName}"`;
  return fromVariant({
    product,
    valuesName: 'option values',
    values,
    one: 'product',
    things: 'variants',
    skuColumn: 'SKU',
  });
}

function optionValues(text: string): string[] {
  const modern = [...text.matchAll(/Value=([^|;]+)/gi)].map((m) => (m[1] ?? '').trim());
  if (modern.length > 0) return modern;
  return [...text.matchAll(/\[[^\]]*\][^=,]*=([^,]+)/g)].map((m) => (m[1] ?? '').trim());
}

function asList(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** BigCommerce writes 0 for "no sale price". */
function zeroAsNone(text: string): string {
  return /^0+(?:\.0+)?$/.test(text) ? '' : text;
}

function stateOf(visible: string, purchasable: string, availability: string): SourceState | undefined {
  const no = (text: string) => /^(n|no|false|0)$/i.test(text);
  if (no(visible)) return { status: 'hidden', says: `BigCommerce visible ${visible}` };
  if (no(purchasable))
    return { status: 'hidden', says: `BigCommerce Allow Purchases ${purchasable} (shown, not sold)` };
  if (availability.toLowerCase() === 'disabled')
    return { status: 'hidden', says: 'BigCommerce availability disabled (cannot be purchased)' };
  if (visible !== '' || purchasable !== '' || availability !== '')
    return { status: 'active', says: 'BigCommerce visible' };
  return undefined;
}
