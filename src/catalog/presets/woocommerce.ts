import type { SourceRecord } from '../../interfaces.js';
import { splitList } from '../fields.js';
import { Columns, put, slug } from './columns.js';
import { inherit, Parents } from './parents.js';
import type { Draft, Preset, RawFields, RowMapper } from './types.js';

const INHERITED = ['description', 'category', 'images', 'brand', 'tags'] as const;

/**
 * WooCommerce product CSV (exporter and importer format). `price` is the regular price and
 * `sale_price` the sale price. A `variable` product is a parent: merged into its first `variation`
 * (see parents.ts), whose rows are the products, found by `Parent` (`id:NN` or the parent's SKU).
 * A `grouped` product without a price of its own is invalid (its items are rows of their own); an
 * `external` product is an ordinary product. Without SKU the key is `woocommerce:id:<ID>`, else
 * `woocommerce:<parent>:<attribute values>` for a variation, else `woocommerce:<name slug>`: a
 * derived key only matches the product, it is not sent as its sku.
 */
export const woocommerce: Preset = {
  name: 'woocommerce',
  signature: {
    required: [['type'], ['name'], ['regular price']],
    distinctive: ['sku', 'sale price', 'parent', 'grouped products', 'in stock?', 'visibility in catalog'],
  },
  decimalStyle: 'auto',
  fields: () => [
    'sku',
    'name',
    'description',
    'price',
    'sale_price',
    'quantity',
    'category',
    'tags',
    'images',
    'weight',
    'barcode',
    'brand',
  ],
  create: (columns) => createWooMapper(new Columns(columns)),
};

function createWooMapper(c: Columns): RowMapper {
  const read = {
    id: c.reader('id'),
    type: c.reader('type'),
    sku: c.reader('sku'),
    name: c.reader('name'),
    description: c.reader('description'),
    short: c.reader('short description'),
    regular: c.reader('regular price'),
    sale: c.reader('sale price'),
    stock: c.reader('stock'),
    categories: c.reader('categories'),
    tags: c.reader('tags'),
    images: c.reader('images'),
    weight: c.reader(/^weight( \(.*\))?$/),
    barcode: c.reader('gtin, upc, ean, or isbn', 'gtin'),
    brand: c.reader('brands', 'brand'),
    parent: c.reader('parent'),
    grouped: c.reader('grouped products'),
    attributes: [1, 2, 3, 4, 5].map((n) => c.reader(`attribute ${n} value(s)`)),
  };
  const parents = new Parents();

  const productFields = (record: SourceRecord): RawFields => {
    const fields: RawFields = {};
    put(fields, 'name', read.name(record));
    put(fields, 'description', read.description(record) || read.short(record));
    put(fields, 'price', read.regular(record));
    put(fields, 'sale_price', read.sale(record));
    put(fields, 'quantity', read.stock(record));
    put(fields, 'category', read.categories(record));
    put(fields, 'tags', splitList(read.tags(record)));
    put(fields, 'images', splitList(read.images(record)));
    put(fields, 'weight', read.weight(record));
    put(fields, 'barcode', read.barcode(record));
    put(fields, 'brand', read.brand(record));
    return fields;
  };

  const attributeValues = (record: SourceRecord) =>
    read.attributes.map((attribute) => attribute(record)).filter((value) => value !== '');

  const keyOf = (record: SourceRecord, parentRef: string, notes: string[]): string => {
    const sku = read.sku(record);
    if (sku !== '') return sku;
    const id = read.id(record);
    const name = slug(read.name(record));
    const derived = id
      ? `woocommerce:id:${id}`
      : parentRef
        ? `woocommerce:${parentRef}:${attributeValues(record).join('/')}`
        : name
          ? `woocommerce:${name}`
          : '';
    if (derived !== '') notes.push(`key derived (no SKU): ${derived}, not sent as sku`);
    return derived;
  };

  return {
    push(record) {
      const types = splitList(read.type(record).toLowerCase());
      const notes: string[] = [];
      const parentRef = types.includes('variation') ? read.parent(record) : '';
      const key = keyOf(record, parentRef, notes);
      const sku = read.sku(record);
      const fields: RawFields = {};
      put(fields, 'sku', sku);
      Object.assign(fields, productFields(record));

      if (types.includes('variable')) {
        const refs = [read.sku(record), read.id(record) ? `id:${read.id(record)}` : ''];
        return parents.hold(refs, { record, key, fields, describe: `variable product "${key}"` });
      }
      if (types.includes('grouped') && fields.price === undefined) {
        const items = read.grouped(record);
        const reason = `grouped product has no price of its own${items ? `; its items (${items}) are rows of their own` : ''}`;
        return [{ kind: 'invalid', record, key, reason }];
      }
      const drafts: Draft[] = [];
      if (parentRef !== '') {
        const claimed = parents.claim(parentRef, record);
        drafts.push(...claimed.drafts);
        if (claimed.parent) {
          const parentName = claimed.parent.fields.name;
          if (fields.name === undefined && typeof parentName === 'string') {
            const values = attributeValues(record);
            fields.name = values.length > 0 ? `${parentName} - ${values.join(', ')}` : parentName;
          }
          inherit(fields, claimed.parent.fields, INHERITED);
        } else {
          notes.push(`parent "${parentRef}" is not in this file before this variation`);
        }
      }
      drafts.push(
        sku === '' && key !== ''
          ? { kind: 'product', record, fields, derivedKey: key, notes }
          : { kind: 'product', record, fields, notes },
      );
      return drafts;
    },
    end: () =>
      parents.leftovers(
        (parent) =>
          `variable product "${parent.key}" has no variations in this file (a parent has no price of its own)`,
      ),
  };
}
