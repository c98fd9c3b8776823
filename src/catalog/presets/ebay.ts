import { splitList } from '../fields.js';
import { put } from './columns.js';
import type { Preset, RawFields } from './types.js';
import { oneToOne } from './types.js';

const SENDS = new Set(['add', 'revise', 'relist', 'verifyadd', 'addfixedpriceitem', '']);

/**
 * eBay bulk listing sheets: Seller Hub "Reports > Upload" (`Action`, `Custom label (SKU)`,
 * `Buy It Now price`) and the legacy File Exchange (`*Action(SiteID=US|…)`, `CustomLabel`,
 * `*StartPrice`). Add, Revise and Relist rows become upserts; End or Delete rows are invalid (the
 * Seller API has no delete). Prices like `$269.99 ` are read as decimals (currency and spaces dropped).
 */
export const ebay: Preset = {
  name: 'ebay',
  signature: {
    required: [['action'], ['title']],
    distinctive: [
      'custom label (sku)',
      'customlabel',
      'buy it now price',
      'buyitnowprice',
      'start price',
      'startprice',
      'condition id',
      'conditionid',
      'category id',
      'format',
      'duration',
    ],
  },
  decimalStyle: 'dot',
  fields: () => ['sku', 'name', 'description', 'price', 'quantity', 'images', 'condition', 'category'],
  create(c) {
    const read = {
      action: c.reader('action'),
      sku: c.reader('custom label (sku)', 'customlabel', 'sku'),
      title: c.reader('title'),
      description: c.reader('description'),
      buyItNow: c.reader('buy it now price', 'buyitnowprice'),
      start: c.reader('start price', 'startprice'),
      quantity: c.reader('quantity'),
      images: c.reader('item photo url', 'picurl'),
      condition: c.reader('condition id', 'conditionid'),
      category: c.reader('category id', 'category'),
    };
    return oneToOne((record) => {
      const key = read.sku(record);
      const action = read.action(record);
      if (!SENDS.has(action.toLowerCase())) {
        const reason = /^(end|delete)$/i.test(action)
          ? `eBay action ${action}: the Seller API has no delete`
          : `unknown eBay action "${action}"`;
        return { kind: 'invalid', record, key, reason };
      }
      const fields: RawFields = {};
      put(fields, 'sku', key);
      put(fields, 'name', read.title(record));
      put(fields, 'description', read.description(record));
      put(fields, 'price', read.buyItNow(record) || read.start(record));
      put(fields, 'quantity', read.quantity(record));
      put(fields, 'images', splitList(read.images(record), '|'));
      put(fields, 'condition', read.condition(record));
      put(fields, 'category', read.category(record));
      return { kind: 'product', record, fields, notes: [] };
    });
  },
};
