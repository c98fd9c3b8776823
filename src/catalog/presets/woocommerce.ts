import type { SourceRecord } from '../../interfaces.js';
import { trimCell } from '../cell-text.js';
import { splitList } from '../fields.js';
import { type Columns, put, slug } from './columns.js';
import { fromId, fromName, fromVariant, type KeyDerivation } from './key-derivation.js';
import { inherit, Parents } from './parents.js';
import { timedSale, twoDates, WOO_WRITES, wooSaleDate } from './sale-dates.js';
import type { Draft, Preset, PresetRun, RawFields, RowMapper, SourceState } from './types.js';
import { wooDescriptionOfCell } from './woocommerce-description.js';
import { localizeWooHeader } from './woocommerce-header.js';

/**
 * What a variation leaves blank and takes from its parent. Weight too: WooCommerce's admin says
 * "Enter a weight for this variation or leave blank to use the parent product weight", and
 * WC_Product_Variation::get_weight() returns the parent's when the variation's is empty().
 */
const INHERITED = ['description', 'category', 'images', 'brand', 'tags', 'weight'] as const;

/**
 * WooCommerce product CSV (exporter and importer format). `price` is the regular price and
 * `sale_price` the sale price. A `variable` product is a parent: merged into its first `variation`
 * (see parents.ts), whose rows are the products, found by `Parent` (`id:NN` or the parent's SKU).
 * A `grouped` product is a set of products sold one by one (its items are rows of their own) and
 * an `external` product is sold on another site: both are skipped with the reason (an external one
 * is sent as a product of its own with `--include-external`). Without SKU the
 * key is `woocommerce:id:<ID>`, else `woocommerce:<parent>:<attribute values>` for a variation,
 * else `woocommerce:<name slug>`: a derived key only matches the product, it is not sent as its sku.
 * A row with SKU and ID carries `woocommerce:id:<ID>` as its former key (Draft's `platformKey`).
 * A sale price is sent while its sale runs (`Date sale price starts`/`ends`, sale-dates.ts); a
 * blank one, or one whose sale does not run, ends a sale the marketplace still shows (`noSale`).
 *
 * Published state: `Published` 1 is published, 0 private (a disabled variation), -1 draft (the
 * exporter writes `'-1`: its escaping of a cell that begins with `=`, `+`, `-` or `@` is undone for
 * every cell); `Visibility in catalog` hidden is hidden. A variation of a parent that is not
 * published is not sold either.
 *
 * A `\n` in Description or Short description is a newline, as the exporter writes one
 * (woocommerce-description.ts).
 *
 * The header is in the store's language: see woocommerce-header.ts.
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
    'status',
  ],
  create: (columns, run) => createWooMapper(columns, run),
  localize: localizeWooHeader,
};

/**
 * The exporter's guard against spreadsheet formulas (WC_CSV_Exporter::escape_data): a `'` before a
 * cell that begins with `=`, `+`, `-` or `@` (newer versions: also a tab or carriage return).
 * WooCommerce's importer takes it off again (unescape_data); so does this preset.
 */
export function unescapeWoo(text: string): string {
  return /^'[=+\-@\t\r]/.test(text) ? text.slice(1) : text;
}

const PUBLISHED: Record<string, SourceState['status']> = {
  '1': 'active',
  '0': 'private',
  '-1': 'draft',
};

function createWooMapper(c: Columns, run: PresetRun): RowMapper {
  const reader = (...names: (string | RegExp)[]) => {
    const column = c.find(...names);
    if (column === undefined) return () => '';
    return (record: SourceRecord) => trimCell(unescapeWoo(record.values[column] ?? ''));
  };
  /** A description column: its `\n` are newlines (woocommerce-description.ts). */
  const descriptionReader = (name: string) => {
    const read = reader(name);
    return (record: SourceRecord) => wooDescriptionOfCell(read(record)).trim();
  };
  const read = {
    id: reader('id'),
    type: reader('type'),
    sku: reader('sku'),
    name: reader('name'),
    published: reader('published'),
    visibility: reader('visibility in catalog'),
    description: descriptionReader('description'),
    short: descriptionReader('short description'),
    regular: reader('regular price'),
    sale: reader('sale price'),
    saleFrom: reader('date sale price starts'),
    saleTo: reader('date sale price ends'),
    stock: reader('stock'),
    inStock: reader('in stock?'),
    categories: reader('categories'),
    tags: reader('tags'),
    images: reader('images'),
    weight: reader(/^weight( \(.*\))?$/),
    barcode: reader('gtin, upc, ean, or isbn', 'gtin'),
    brand: reader('brands', 'brand'),
    parent: reader('parent'),
    grouped: reader('grouped products'),
    externalUrl: reader('external url'),
    attributes: [1, 2, 3, 4, 5].map((n) => reader(`attribute ${n} value(s)`)),
  };
  // The exporter writes Sale price for every product, blank where none is set: a blank one is no
  // sale, which ends one the marketplace still shows (Draft's `noSale`). A file without the column says nothing.
  const saysSale = c.find('sale price') !== undefined;
  const parents = new Parents();
  /** The state of each held parent, for its variations: a private parent's variations are not sold. */
  const parentStates = new Map<string, SourceState>();

  const productFields = (record: SourceRecord): RawFields => {
    const fields: RawFields = {};
    put(fields, 'name', read.name(record));
    put(fields, 'description', read.description(record) || read.short(record));
    put(fields, 'price', read.regular(record));
    put(fields, 'sale_price', read.sale(record));
    put(fields, 'quantity', read.stock(record) || quantityOfStatus(read.inStock(record)));
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

  /** The row's key: its SKU, else one derived, with what it was made of. */
  const keyOf = (
    record: SourceRecord,
    parentRef: string,
    notes: string[],
  ): { key: string; derivedFrom?: KeyDerivation } => {
    const sku = read.sku(record);
    if (sku !== '') return { key: sku };
    const derived = derivedKeyOf(record, parentRef);
    if (derived.key !== '') notes.push(`key derived (no SKU): ${derived.key}, not sent as sku`);
    return derived;
  };

  const derivedKeyOf = (
    record: SourceRecord,
    parentRef: string,
  ): { key: string; derivedFrom?: KeyDerivation } => {
    const id = read.id(record);
    if (id) return { key: `woocommerce:id:${id}`, derivedFrom: fromId('ID', id) };
    if (parentRef) {
      const values = attributeValues(record);
      return {
        key: `woocommerce:${parentRef}:${values.join('/')}`,
        derivedFrom: fromParent(parentRef, values),
      };
    }
    const name = slug(read.name(record));
    if (!name) return { key: '' };
    return {
      key: `woocommerce:${name}`,
      derivedFrom: fromName('name', read.name(record), 'SKU', 'products'),
    };
  };

  const saleDates = (record: SourceRecord) =>
    twoDates(
      { column: 'Date sale price starts', text: read.saleFrom(record) },
      { column: 'Date sale price ends', text: read.saleTo(record) },
      wooSaleDate,
      WOO_WRITES,
    );

  /** The row's own state: Published, then Visibility in catalog; undefined when neither is given. */
  const stateOf = (record: SourceRecord, variation: boolean): SourceState | undefined => {
    const published = read.published(record);
    const visibility = read.visibility(record).toLowerCase();
    if (published !== '') {
      const status = PUBLISHED[published] ?? 'hidden';
      const what =
        status === 'active' ? 'published' : variation && status === 'private' ? 'disabled' : status;
      const says = `WooCommerce Published ${published} (${PUBLISHED[published] ? what : 'unknown'})`;
      if (status !== 'active') return { status, says };
    }
    if (visibility === 'hidden')
      return { status: 'hidden', says: 'WooCommerce Visibility in catalog hidden' };
    if (published !== '') return { status: 'active', says: `WooCommerce Published ${published}` };
    return undefined;
  };

  return {
    push(record) {
      const types = splitList(read.type(record).toLowerCase());
      const notes: string[] = [];
      const isVariation = types.includes('variation');
      const parentRef = isVariation ? read.parent(record) : '';
      const { key, derivedFrom } = keyOf(record, parentRef, notes);
      const sku = read.sku(record);
      const fields: RawFields = {};
      put(fields, 'sku', sku);
      Object.assign(fields, productFields(record));
      const state = stateOf(record, isVariation);

      if (types.includes('variable')) {
        const refs = [read.sku(record), read.id(record) ? `id:${read.id(record)}` : ''];
        if (state) for (const ref of refs) if (ref !== '') parentStates.set(ref, state);
        return parents.hold(refs, { record, key, fields, describe: `variable product "${key}"` });
      }
      if (types.includes('grouped')) {
        const items = read.grouped(record);
        const reason = `grouped product: a set of products sold one by one, not a product of its own${items ? `; its items (${items}) are rows of their own` : ''}`;
        return [{ kind: 'skipped', record, key, reason }];
      }
      const url = types.includes('external') ? read.externalUrl(record) : '';
      const external = types.includes('external')
        ? `external (affiliate) product: sold on another site${url ? ` (${url})` : ''}, not by this store`
        : undefined;
      const drafts: Draft[] = [];
      let parentState: SourceState | undefined;
      let parentRecord: SourceRecord | undefined;
      if (parentRef !== '') {
        const claimed = parents.claim(parentRef, record);
        drafts.push(...claimed.drafts);
        parentState = parentStates.get(parentRef);
        if (claimed.parent) {
          const parentName = claimed.parent.fields.name;
          if (fields.name === undefined && typeof parentName === 'string') {
            const values = attributeValues(record);
            fields.name = values.length > 0 ? `${parentName} - ${values.join(', ')}` : parentName;
          }
          // PHP's empty() holds "0" empty too: a variation's weight 0 is its parent's in WooCommerce.
          if (fields.weight === '0' && claimed.parent.fields.weight !== undefined) delete fields.weight;
          inherit(fields, claimed.parent.fields, INHERITED);
          parentRecord = claimed.parent.record;
        } else {
          notes.push(`parent "${parentRef}" is not in this file before this variation`);
        }
      }
      const draft: Draft & { kind: 'product' } = { kind: 'product', record, fields, notes };
      if (parentRecord) draft.inheritsFrom = [parentRecord];
      if (sku === '' && key !== '') draft.derivedKey = key;
      if (derivedFrom) draft.derivedFrom = derivedFrom;
      // A product's ID is its own for good (WooCommerce never gives it to another): the key of a
      // row without SKU, and the former key of a row that has one now. A name is not so.
      const id = read.id(record);
      if (id !== '') draft.platformKey = `woocommerce:id:${id}`;
      if (external) draft.external = external;
      // A variation is sold when it is and its parent is. A parent that is not gives its state
      // (docs/sources.md): a disabled variation of a draft is a draft, as the whole product is.
      const effective =
        parentState && parentState.status !== 'active'
          ? { status: parentState.status, says: `its parent "${parentRef}": ${parentState.says}` }
          : state;
      if (effective) draft.state = effective;
      if (saysSale && fields.sale_price === undefined) draft.noSale = true;
      drafts.push(timedSale(draft, 'Sale price', () => saleDates(record), run));
      return drafts;
    },
    end: () =>
      parents.leftovers(
        (parent) =>
          `variable product "${parent.key}" has no variations in this file (a parent is not sold on its own)`,
      ),
  };
}

/** A variation's key without SKU nor ID: its parent's reference and its attribute values. */
function fromParent(parentRef: string, values: readonly string[]): KeyDerivation {
  return fromVariant({
    product: `its parent "${parentRef}"`,
    valuesName: 'attribute values',
    values,
    one: 'parent',
    things: 'variations',
    skuColumn: 'SKU',
  });
}

/**
 * Without a Stock number (stock not managed), `In stock?` is all the product says: 0 (out of stock)
 * is none available; 1 and backorder are sold, in numbers the shop does not count: nothing is sent.
 */
function quantityOfStatus(inStock: string): string {
  const status = inStock.trim().toLowerCase();
  return status === '0' || status === 'outofstock' ? '0' : '';
}
