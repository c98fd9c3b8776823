import type { SourceRecord } from '../../interfaces.js';
import { compareDecimals, type ParsedDecimal, parseDecimal, withoutFloatNoise } from '../decimal.js';
import { splitList } from '../fields.js';
import { type Columns, put } from './columns.js';
import { fromVariant } from './key-derivation.js';
import type { Draft, Preset, PresetRun, RawFields, RowMapper, SourceState } from './types.js';

const DEFAULT_OPTION = 'Default Title';

/**
 * Shopify product CSV (export and import template). One product spreads over several rows that share
 * a Handle: the first carries the product fields (Title, Body, Vendor …), each variant row its own
 * SKU and price, and image-only rows (Handle + Image Src) add to the gallery. The Seller API has no
 * variants, so each variant becomes its own product; image-only rows are merged into the handle's
 * first row. A variant without SKU gets the key `shopify:<handle>[:<opt1>/<opt2>…]`, to match it
 * by; that derived key is not sent as the product's sku. A variant with a SKU carries that key as
 * its former key: the product made for it before it had one is still its own. The product's
 * `Status` (active, draft, archived; `unlisted` is hidden) is its state, for every variant; an
 * export without `Status` (before 2021) says it with `Published` FALSE.
 */
export const shopify: Preset = {
  name: 'shopify',
  signature: {
    required: [['handle'], ['variant price']],
    distinctive: [
      'title',
      'variant sku',
      'body (html)',
      'option1 value',
      'image src',
      'variant compare at price',
    ],
  },
  decimalStyle: 'dot',
  fields: () => [
    'sku',
    'name',
    'description',
    'brand',
    'category',
    'tags',
    'status',
    'price',
    'sale_price',
    'quantity',
    'barcode',
    'weight',
    'images',
  ],
  create: (columns, run) => createShopifyMapper(columns, run),
};

function createShopifyMapper(c: Columns, run: PresetRun | undefined): RowMapper {
  // Compare-at and price compared as they will be sent: in the file's decimal style (decimal-reader.ts).
  const readDecimal = run?.readDecimal ?? ((text: string) => parseDecimal(text, 'dot'));
  const read = {
    handle: c.reader('handle'),
    title: c.reader('title'),
    body: c.reader('body (html)', 'body html'),
    vendor: c.reader('vendor'),
    category: c.reader('product category'),
    type: c.reader('type'),
    tags: c.reader('tags'),
    status: c.reader('status'),
    published: c.reader('published', 'published on online store'),
    options: [c.reader('option1 value'), c.reader('option2 value'), c.reader('option3 value')],
    sku: c.reader('variant sku'),
    price: c.reader('variant price'),
    compareAt: c.reader('variant compare at price'),
    quantity: c.reader('variant inventory qty'),
    tracker: c.reader('variant inventory tracker'),
    barcode: c.reader('variant barcode'),
    grams: c.reader('variant grams'),
    variantImage: c.reader('variant image'),
    imageSrc: c.reader('image src'),
  };
  type Read = typeof read;
  /**
   * Shopify's export writes Variant Compare At Price for every variant, blank where none is set: a
   * variant without a compare-at above its price is on no sale, which ends a sale the marketplace
   * still shows (Draft's `noSale`). A file without the column says nothing of sales.
   */
  const saysSale = c.has('variant compare at price');
  /** An export without the tracker column says nothing of tracking: its quantities are sent. */
  const tracked = c.has('variant inventory tracker');
  let group: SourceRecord[] = [];

  const flush = (): Draft[] => {
    const drafts = group.length > 0 ? mapHandle(group, read) : [];
    group = [];
    return drafts;
  };

  return {
    push(record) {
      const handle = read.handle(record);
      if (handle === '') return [...flush(), { kind: 'invalid', record, reason: 'missing Handle' }];
      const closing = group.length > 0 && read.handle(group[0]!) !== handle ? flush() : [];
      group.push(record);
      return closing;
    },
    end: flush,
  };

  function mapHandle(rows: SourceRecord[], r: Read): Draft[] {
    const handle = r.handle(rows[0]!);
    const productRow = rows.find((row) => r.title(row) !== '') ?? rows[0]!;
    const isVariant = (row: SourceRecord) =>
      r.sku(row) !== '' || r.price(row) !== '' || r.options[0]!(row) !== '';
    const variants = rows.filter(isVariant);
    if (variants.length === 0) variants.push(productRow);
    const gallery = unique(rows.map(r.imageSrc));
    /** The rows a variant takes fields from: the title row, and each row that adds an image. */
    const givers = rows.filter((row) => row === productRow || r.imageSrc(row) !== '');
    const several = variants.length > 1;

    const derivedOf = (row: SourceRecord) => {
      const options = r.options.map((option) => option(row)).filter((value) => value !== '');
      const named = options.length > 0 && !(options.length === 1 && options[0] === DEFAULT_OPTION);
      return { options, named, derived: `shopify:${handle}${named ? `:${options.join('/')}` : ''}` };
    };
    // Shopify gives each variant of a handle its own option values: a derived key two variants of
    // this file share (options left blank) names neither for good, so neither carries it as former.
    const sharing = new Map<string, number>();
    for (const row of variants) {
      const { derived } = derivedOf(row);
      sharing.set(derived, (sharing.get(derived) ?? 0) + 1);
    }

    const products = new Map<SourceRecord, { draft: Draft & { kind: 'product' }; key: string }>();
    for (const row of variants) {
      const { options, named, derived } = derivedOf(row);
      const fields: RawFields = {};
      const notes: string[] = [];
      const sku = r.sku(row);
      const key = sku || derived;
      if (sku === '')
        notes.push(`key derived from handle and options (no Variant SKU): ${key}, not sent as sku`);
      put(fields, 'sku', sku);
      const title = r.title(productRow);
      put(fields, 'name', title !== '' && several && named ? `${title} - ${options.join(' / ')}` : title);
      put(fields, 'description', r.body(productRow));
      put(fields, 'brand', r.vendor(productRow));
      put(fields, 'category', r.category(productRow) || r.type(productRow));
      put(fields, 'tags', splitList(r.tags(productRow)));
      putPrices(fields, notes, r.price(row), r.compareAt(row), readDecimal);
      putQuantity(fields, notes, r.quantity(row), tracked ? r.tracker(row) : 'shopify');
      put(fields, 'barcode', r.barcode(row));
      put(fields, 'weight', r.grams(row));
      put(fields, 'images', unique([r.variantImage(row), ...gallery]));
      const draft: Draft & { kind: 'product' } = { kind: 'product', record: row, fields, notes };
      const state = stateOf(r.status(productRow), r.published(productRow));
      if (state) draft.state = state;
      if (saysSale && fields.sale_price === undefined) draft.noSale = true;
      if (sku === '') {
        draft.derivedKey = key;
        draft.derivedFrom = fromVariant({
          product: `the handle "${handle}"`,
          valuesName: 'option values',
          values: named ? options : [],
          one: 'handle',
          things: 'variants',
          skuColumn: 'Variant SKU',
        });
      }
      if (sharing.get(derived) === 1) draft.platformKey = derived;
      const from = givers.filter((giver) => giver !== row);
      if (from.length > 0) draft.inheritsFrom = from;
      products.set(row, { draft, key });
    }

    const { draft: first, key: firstKey } = products.get(variants[0]!)!;
    return rows.map((row): Draft => {
      const product = products.get(row);
      if (product) return product.draft;
      const what = r.imageSrc(row) !== '' ? 'image row' : 'row without variant data';
      return {
        kind: 'merged',
        record: row,
        key: firstKey,
        intoRow: first.record.row,
        reason: `Shopify ${what} of handle "${handle}": merged into row ${first.record.row}`,
        sharesKey: true,
      };
    });
  }
}

/**
 * Shopify's Variant Price is what the customer pays and Compare At the "was" price; our `price` is
 * the regular price and `sale_price` the reduced one (src/catalog/fields.ts), so a real compare-at
 * swaps them in. A compare-at not above the price is not a sale: Shopify shows none, neither do we.
 */
/**
 * `Variant Inventory Qty` counts only where Shopify (or a fulfilment service) tracks the variant:
 * with `Variant Inventory Tracker` blank the store sells it whatever the number says, so the number
 * is not the stock and is not sent (a 0 would stop the sales the store makes).
 */
function putQuantity(fields: RawFields, notes: string[], quantity: string, tracker: string): void {
  if (tracker !== '') put(fields, 'quantity', quantity);
  else if (quantity !== '')
    notes.push('inventory not tracked in Shopify (Variant Inventory Tracker blank): quantity not sent');
}

function putPrices(
  fields: RawFields,
  notes: string[],
  price: string,
  compareAt: string,
  readDecimal: (text: string) => ParsedDecimal,
): void {
  if (compareAt === '') {
    put(fields, 'price', price);
    return;
  }
  const current = readDecimal(price);
  const was = readDecimal(compareAt);
  if (!current.ok || !was.ok) {
    put(fields, 'price', price);
    return;
  }
  // Either reads two ways (a file that shows both styles): which is the sale cannot be told. Both
  // are given, so that validation refuses the row naming the value, rather than guess.
  if (current.ambiguous || was.ambiguous) {
    put(fields, 'price', compareAt);
    put(fields, 'sale_price', price);
    return;
  }
  // Compared as sent: float noise (`20.000000000000004`) does not make a sale of an equal price.
  if (compareDecimals(withoutFloatNoise(was.value), withoutFloatNoise(current.value)) > 0) {
    put(fields, 'price', compareAt);
    put(fields, 'sale_price', price);
    return;
  }
  put(fields, 'price', price);
  notes.push(`compare-at price ${compareAt} is not above the price ${price}: not sent as a sale`);
}

const STATUSES: Record<string, SourceState['status']> = {
  active: 'active',
  draft: 'draft',
  archived: 'archived',
  unlisted: 'hidden',
};

/** Shopify's Status, or for an export without it, Published (TRUE/FALSE). */
function stateOf(status: string, published: string): SourceState | undefined {
  if (status !== '') {
    const known = STATUSES[status.toLowerCase()];
    return { status: known ?? 'hidden', says: `Shopify Status ${status}${known ? '' : ' (unknown)'}` };
  }
  const flag = published.toLowerCase();
  if (flag === 'false') return { status: 'hidden', says: 'Shopify Published FALSE' };
  if (flag === 'true') return { status: 'active', says: 'Shopify Published TRUE' };
  return undefined;
}

function unique(values: string[]): string[] {
  return [...new Set(values.filter((value) => value !== ''))];
}
