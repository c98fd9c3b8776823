import { splitList } from '../fields.js';
import { Columns, put } from './columns.js';
import type { Preset, RawFields } from './types.js';
import { oneToOne } from './types.js';

const WITHOUT_OWN_PRICE = new Set(['grouped', 'configurable']);

/**
 * Magento 2 product import/export CSV. A row with a `store_view_code` is a store view's translation
 * of the default row with the same SKU: merged into it, not a second product (a store-view row that
 * comes before its default row is invalid). `special_price` is the sale price; `product_online` 1 is
 * active. Grouped and configurable products without a price of their own are invalid: their
 * children are rows of their own.
 */
export const magento: Preset = {
  name: 'magento',
  signature: {
    required: [['sku'], ['product_type']],
    distinctive: [
      'attribute_set_code',
      'store_view_code',
      'product_websites',
      'url_key',
      'qty',
      'categories',
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
    'weight',
    'category',
    'images',
    'active',
  ],
  create(columns) {
    const c = new Columns(columns);
    const read = {
      sku: c.reader('sku'),
      storeView: c.reader('store_view_code'),
      type: c.reader('product_type'),
      name: c.reader('name'),
      description: c.reader('description'),
      short: c.reader('short_description'),
      price: c.reader('price'),
      special: c.reader('special_price'),
      qty: c.reader('qty'),
      weight: c.reader('weight'),
      categories: c.reader('categories'),
      baseImage: c.reader('base_image'),
      additionalImages: c.reader('additional_images'),
      online: c.reader('product_online'),
    };
    /** Default rows by SKU: the rows store-view translations are merged into. */
    const defaultRows = new Map<string, number>();

    return oneToOne((record) => {
      const key = read.sku(record);
      const storeView = read.storeView(record);
      if (storeView !== '') {
        const intoRow = defaultRows.get(key);
        if (intoRow === undefined) {
          const reason = `store view "${storeView}" row of "${key}" comes before its default row (empty store_view_code)`;
          return { kind: 'invalid', record, key, reason };
        }
        const reason = `translation for store view "${storeView}": merged into the default row ${intoRow}`;
        return { kind: 'merged', record, key, intoRow, reason };
      }
      if (key !== '' && !defaultRows.has(key)) defaultRows.set(key, record.row);
      const fields: RawFields = {};
      put(fields, 'sku', key);
      put(fields, 'name', read.name(record));
      put(fields, 'description', read.description(record) || read.short(record));
      put(fields, 'price', read.price(record));
      put(fields, 'sale_price', read.special(record));
      put(fields, 'quantity', read.qty(record));
      put(fields, 'weight', read.weight(record));
      put(fields, 'category', read.categories(record));
      put(
        fields,
        'images',
        [read.baseImage(record), ...splitList(read.additionalImages(record))].filter(Boolean),
      );
      const online = read.online(record);
      if (online !== '') fields.active = online === '1' ? 'true' : 'false';
      const type = read.type(record).toLowerCase();
      if (WITHOUT_OWN_PRICE.has(type) && fields.price === undefined) {
        return { kind: 'invalid', record, key, reason: `${type} product has no price of its own` };
      }
      return { kind: 'product', record, fields, notes: [] };
    });
  },
};
