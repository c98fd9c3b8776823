import { put } from './columns.js';
import { googleSaleDates, timedSale } from './sale-dates.js';
import type { Draft, Preset, RawFields } from './types.js';
import { oneToOne } from './types.js';

const TRAILING_CURRENCY = /^(.*?)\s*([A-Z]{3})$/;
/** A currency's code or sign anywhere in the cell (`USD 12.50`): then it has one. */
const MARKED = /[A-Z]{3}|\p{Sc}/u;
/** A price of nothing: `0`, `0.00`, `.0` (a blank one is no price at all, not this). */
const ZERO = /^(?:0+(?:\.0*)?|\.0+)$/;

/**
 * Merchant Center disapproves an item priced 0 (its price is required, a number above zero): a feed
 * that says 0 did not mean to sell it free, its price was left unset (a site generator's default).
 * Sent, it would be a live product at 0; the row is invalid instead, and says so.
 */
function zeroPrice(written: string): string {
  return `price "${written}" is no price in a Merchant Center feed (Google disapproves an item priced 0): give the item its price`;
}

/**
 * Google Merchant Center feeds (RSS 2.0 with `g:` elements, or the TSV form). The `g:` prefix is
 * ignored and plain RSS `title`/`link` stand in for `g:title`/`g:link`. `price` like `12.50 EUR`
 * gives the price and the `currency`; the offer `id` is the SKU (not the remote product id). A
 * price of 0 makes the row invalid (see zeroPrice).
 *
 * Published state, where the feed says so: `availability` out_of_stock is, in Merchant Center's
 * words, "not accepting orders for this product", and `pause` (ads) stops showing it: both hidden.
 * An item whose availability is in_stock, preorder or backorder is sold. `sale_price` is sent while
 * its `sale_price_effective_date` period runs (sale-dates.ts).
 */
export const googleMerchant: Preset = {
  name: 'google-merchant',
  signature: {
    required: [['id'], ['price'], ['title']],
    distinctive: [
      'image_link',
      'availability',
      'link',
      'gtin',
      'brand',
      'condition',
      'google_product_category',
      'mpn',
    ],
  },
  decimalStyle: 'dot',
  fields: () => [
    'sku',
    'name',
    'description',
    'price',
    'sale_price',
    'currency',
    'url',
    'images',
    'availability',
    'condition',
    'brand',
    'barcode',
    'mpn',
    'category',
    'status',
  ],
  create(c, run) {
    const read = {
      id: c.reader('id'),
      title: c.reader('title'),
      description: c.reader('description'),
      price: c.reader('price'),
      sale: c.reader('sale_price'),
      saleDates: c.reader('sale_price_effective_date'),
      link: c.reader('link'),
      image: c.reader('image_link'),
      additional: c.list('additional_image_link'),
      availability: c.reader('availability'),
      condition: c.reader('condition'),
      brand: c.reader('brand'),
      gtin: c.reader('gtin'),
      mpn: c.reader('mpn'),
      productType: c.reader('product_type'),
      googleCategory: c.reader('google_product_category'),
      pause: c.reader('pause'),
    };
    return oneToOne((record) => {
      const fields: RawFields = {};
      const notes: string[] = [];
      put(fields, 'sku', read.id(record));
      put(fields, 'name', read.title(record));
      put(fields, 'description', read.description(record));
      const written = read.price(record);
      const price = TRAILING_CURRENCY.exec(written);
      const amount = price ? (price[1] ?? '') : written;
      if (ZERO.test(amount))
        return { kind: 'invalid', record, key: read.id(record), reason: zeroPrice(written) };
      // As written (`12.50 USD`): finishDraft reads its currency as every price cell's
      // (price-currency.ts), a code that is none refuses the row, and a sale price in another
      // currency does too; a reason quotes the cell.
      put(fields, 'price', written);
      if (written !== '' && !price && !MARKED.test(written)) notes.push('price without a currency');
      put(fields, 'sale_price', read.sale(record));
      put(fields, 'url', read.link(record));
      // In a feed, one element per link (each its own item); in a TSV file, one cell split on `,`.
      put(fields, 'images', [read.image(record), ...read.additional(record)].filter(Boolean));
      put(fields, 'availability', read.availability(record));
      put(fields, 'condition', read.condition(record));
      put(fields, 'brand', read.brand(record));
      put(fields, 'barcode', read.gtin(record));
      put(fields, 'mpn', read.mpn(record));
      put(fields, 'category', read.productType(record) || read.googleCategory(record));
      const draft: Draft & { kind: 'product' } = { kind: 'product', record, fields, notes };
      const availability = read.availability(record).toLowerCase().replace(/ /g, '_');
      const pause = read.pause(record);
      if (pause !== '') draft.state = { status: 'hidden', says: `Google Merchant pause ${pause}` };
      else if (availability === 'out_of_stock')
        draft.state = {
          status: 'hidden',
          says: 'Google Merchant availability out_of_stock (not accepting orders)',
        };
      else if (availability !== '')
        draft.state = { status: 'active', says: `Google Merchant availability ${availability}` };
      const dates = () => googleSaleDates('sale_price_effective_date', read.saleDates(record));
      return timedSale(draft, 'sale_price', dates, run);
    });
  },
};
