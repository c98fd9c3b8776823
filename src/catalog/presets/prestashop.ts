import { splitList } from '../fields.js';
import { Columns, put, slug } from './columns.js';
import { fromId, fromName } from './key-derivation.js';
import { localizePrestashopHeader } from './prestashop-header.js';
import { nameBlankPrestashopColumns } from './prestashop-layout.js';
import type { Draft, Preset, RawFields, SourceState } from './types.js';
import { oneToOne } from './types.js';

const NAME = ['name *', 'name'];
const NET = ['price tax excluded', 'price tax excl.', 'price (tax excl.)'];
const GROSS = ['price tax included', 'price tax incl.', 'price (tax incl.)'];
/** The 1.6 sample's header, which does not say which of the two it holds. */
const EITHER = 'price tax excluded or price tax included';

/**
 * PrestaShop product CSV (the back office's import format, 1.6 and 1.7/8; also what export modules
 * write for it): `;`-delimited, ISO-8859-1 in older shops (read as Windows-1252, its superset),
 * a lone `.` or `,` as the decimal point, never grouping thousands. `Reference #` is the merchant's
 * SKU; a shop that never filled it (common) is keyed by PrestaShop's own id,
 * `prestashop:id:<Product ID>`, the tool's own key, not sent as sku; with neither, by the name
 * (`prestashop:<name slug>`).
 *
 * The field names follow the back office's language: see prestashop-header.ts. Header cells left
 * blank (the import reads columns by their place) are named by their place: prestashop-layout.ts.
 *
 * Published state: `Active (0/1)` 0 is disabled (draft); `Visibility` none is hidden; `Available
 * for order` 0 means the shop shows it but does not sell it: hidden.
 *
 * Prices: `Price tax excluded` is net of tax and `Tax rules ID` names a tax rule by its id, not a
 * rate: sent net, said in the summary; `--price-includes-tax --tax-rate P%` sends gross. A file
 * with `Price tax included` sends that. Discounts (`Discount amount/percent` with their dates) are
 * time-bound specific prices: not read.
 */
export const prestashop: Preset = {
  name: 'prestashop',
  signature: {
    required: [NAME, [...NET, ...GROSS, EITHER]],
    distinctive: [
      'reference #',
      'active (0/1)',
      'categories (x,y,z...)',
      'tax rules id',
      'image urls (x,y,z...)',
      'product id',
      'ean13',
      'wholesale price',
      'on sale (0/1)',
    ],
  },
  // The back office's import reads a price's comma as the decimal point (str_replace(',', '.')),
  // and shops in comma locales write their weights so too.
  decimalStyle: 'either',
  localize: localizePrestashopHeader,
  nameBlankColumns: nameBlankPrestashopColumns,
  fields: () => [
    'sku',
    'name',
    'description',
    'price',
    'quantity',
    'brand',
    'barcode',
    'mpn',
    'category',
    'tags',
    'images',
    'weight',
    'status',
  ],
  prices(columns) {
    const c = new Columns(columns);
    const gross = c.find(...GROSS);
    if (gross) return { basis: 'gross', from: gross, rates: false };
    const net = c.find(...NET, EITHER);
    if (!net) return undefined;
    const rule = c.find('tax rules id');
    const note = rule ? `${rule} names a tax rule, not a rate` : undefined;
    const said = net.toLowerCase() === EITHER ? `${net}: the file does not say which, taken as net` : net;
    return note
      ? { basis: 'net', from: said, rates: false, note }
      : { basis: 'net', from: said, rates: false };
  },
  create(c) {
    const read = {
      id: c.reader('product id', 'id'),
      active: c.reader('active (0/1)'),
      name: c.reader(...NAME),
      categories: c.reader('categories (x,y,z...)', 'categories'),
      net: c.reader(...NET, EITHER),
      gross: c.reader(...GROSS),
      reference: c.reader('reference #', 'reference'),
      manufacturer: c.reader('manufacturer', 'brand'),
      ean: c.reader('ean13'),
      upc: c.reader('upc'),
      mpn: c.reader('mpn'),
      weight: c.reader('weight'),
      quantity: c.reader('quantity'),
      visibility: c.reader('visibility'),
      summary: c.reader('summary', 'short description'),
      description: c.reader('description'),
      tags: c.reader('tags (x,y,z...)', 'tags'),
      availableForOrder: c.reader('available for order (0 = no, 1 = yes)', 'available for order'),
      images: c.reader('image urls (x,y,z...)', 'image urls'),
    };
    return oneToOne((record) => {
      const notes: string[] = [];
      const reference = read.reference(record);
      const id = read.id(record);
      const nameSlug = slug(read.name(record));
      const derivedKey =
        reference !== '' ? '' : id !== '' ? `prestashop:id:${id}` : nameSlug ? `prestashop:${nameSlug}` : '';
      if (derivedKey !== '') notes.push(`key derived (no Reference #): ${derivedKey}, not sent as sku`);
      const fields: RawFields = {};
      put(fields, 'sku', reference);
      put(fields, 'name', read.name(record));
      put(fields, 'description', read.description(record) || read.summary(record));
      const gross = read.gross(record);
      put(fields, 'price', gross || read.net(record));
      put(fields, 'quantity', read.quantity(record));
      put(fields, 'brand', read.manufacturer(record));
      put(fields, 'barcode', read.ean(record) || read.upc(record));
      put(fields, 'mpn', read.mpn(record));
      put(fields, 'category', read.categories(record));
      put(fields, 'tags', splitList(read.tags(record)));
      put(fields, 'images', splitList(read.images(record)));
      put(fields, 'weight', read.weight(record));
      const draft: Draft & { kind: 'product' } = { kind: 'product', record, fields, notes };
      if (derivedKey !== '') {
        draft.derivedKey = derivedKey;
        draft.derivedFrom =
          id !== ''
            ? fromId('Product ID', id)
            : fromName('name', read.name(record), 'Reference #', 'products');
      }
      if (id !== '') draft.platformKey = `prestashop:id:${id}`;
      draft.tax = gross !== '' ? { basis: 'gross' } : { basis: 'net' };
      const state = stateOf(read.active(record), read.visibility(record), read.availableForOrder(record));
      if (state) draft.state = state;
      return draft;
    });
  },
};

function stateOf(active: string, visibility: string, availableForOrder: string): SourceState | undefined {
  if (active === '0') return { status: 'draft', says: 'PrestaShop Active 0 (disabled)' };
  if (visibility.toLowerCase() === 'none') return { status: 'hidden', says: 'PrestaShop Visibility none' };
  if (availableForOrder === '0')
    return { status: 'hidden', says: 'PrestaShop Available for order 0 (shown, not sold)' };
  if (active === '1') return { status: 'active', says: 'PrestaShop Active 1' };
  return undefined;
}
