import { splitList } from '../fields.js';
import { put } from './columns.js';
import type { Preset, RawFields } from './types.js';
import { oneToOne } from './types.js';

const SENDS = new Set(['add', 'revise', 'relist', 'verifyadd', 'addfixedpriceitem', '']);

/**
 * eBay's templates name the listing site's currency in their Action header,
 * `*Action(SiteID=US|Country=US|Currency=USD|Version=1193)`: every price of the sheet is in it.
 */
function headerCurrency(columns: readonly string[]): string | undefined {
  for (const column of columns) {
    const found = /^\*?action\s*\([^)]*\bcurrency=([a-z]{3})\b/i.exec(column.trim());
    if (found) return found[1]!.toUpperCase();
  }
  return undefined;
}

/** A price written with a symbol or code beside its number (`$269.99`, `US $5`, `12 EUR`). */
const MARKED = /[^\d.,\s-]/;

/**
 * eBay bulk listing sheets: Seller Hub "Reports > Upload" (`Action`, `Custom label (SKU)`,
 * `Buy It Now price`) and the legacy File Exchange (`*Action(SiteID=US|…)`, `CustomLabel`,
 * `*StartPrice`). Add, Revise and Relist rows become upserts; End or Delete rows are invalid (the
 * Seller API has no delete). Prices like `$269.99 ` are read as decimals (symbol and spaces
 * dropped). The currency is the one the Action header names (`Currency=USD`), sent as `currency`;
 * a sheet without it (Seller Hub's upload sheet) does not say which `$` it means (eBay US, Canada
 * and Australia all write `$`): no currency is sent, and a price written with a symbol says so.
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
  fields: (columns) => [
    'sku',
    'name',
    'description',
    'price',
    ...(headerCurrency(columns) ? ['currency'] : []),
    'quantity',
    'images',
    'condition',
    'category',
  ],
  create(c) {
    const currency = headerCurrency(c.all);
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
      const price = read.buyItNow(record) || read.start(record);
      const notes: string[] = [];
      put(fields, 'price', price);
      if (currency && price !== '') put(fields, 'currency', currency);
      else if (MARKED.test(price))
        notes.push(
          `price "${price}": no currency sent: the sheet does not name its eBay site's currency (eBay's template does, in its Action header: Currency=USD)`,
        );
      put(fields, 'quantity', read.quantity(record));
      put(fields, 'images', splitList(read.images(record), '|'));
      put(fields, 'condition', read.condition(record));
      put(fields, 'category', read.category(record));
      return { kind: 'product', record, fields, notes };
    });
  },
};
