import type { SourceRecord } from '../../interfaces.js';
import { splitList } from '../fields.js';
import { Columns, put } from './columns.js';
import { fromId } from './key-derivation.js';
import { inherit } from './parents.js';
import type { Draft, Preset, RawFields, RowMapper, SourceState } from './types.js';

const INHERITED = ['name', 'description', 'price', 'brand', 'images', 'category'] as const;

/**
 * Shopware 6 product import/export CSV (the "Default product" profile): `;`-delimited, dot
 * decimals. `product_number` is the SKU; without one the key is Shopware's own id,
 * `shopware:id:<id>`, the tool's own key, not sent as sku.
 *
 * Prices: `price_gross` (what a customer pays) is sent as the file has it; `price_net` with
 * `tax_rate` where a row has no gross price (`--price-includes-tax` adds that rate to it).
 *
 * Published state: `active` 0 is a draft. Variants: a row with `parent_id` is a variant of that
 * product, each its own product here; as in Shopware, what a variant leaves blank (name, price,
 * description, manufacturer, cover) it inherits from its parent, and the parent, a container,
 * is merged into its first variant when the variants follow it (Shopware writes them so). A row
 * whose `variants` column configures variants this file does not hold is a container: skipped.
 */
export const shopware: Preset = {
  name: 'shopware',
  signature: {
    required: [['product_number'], ['price_net', 'price_gross']],
    distinctive: [
      'tax_rate',
      'tax_id',
      'parent_id',
      'cover_media_url',
      'manufacturer_name',
      'stock',
      'active',
      'sales_channel',
      'price_gross',
    ],
  },
  decimalStyle: 'dot',
  fields: () => [
    'sku',
    'name',
    'description',
    'price',
    'quantity',
    'brand',
    'barcode',
    'category',
    'images',
    'status',
  ],
  prices(columns) {
    const c = new Columns(columns);
    const gross = c.find('price_gross');
    const net = c.find('price_net');
    const rates = c.find('tax_rate') !== undefined;
    if (gross && net)
      return { basis: 'mixed', from: `${gross} (tax included), else ${net} (net of tax)`, rates };
    if (gross) return { basis: 'gross', from: gross, rates };
    return net ? { basis: 'net', from: net, rates } : undefined;
  },
  create: (columns) => createShopwareMapper(columns),
};

interface Row {
  draft: Draft & { kind: 'product' };
  id: string;
  key: string;
  /** The tax rate of a net price, inherited with it. */
  rate: string;
  gross: boolean;
}

function createShopwareMapper(c: Columns): RowMapper {
  const read = {
    id: c.reader('id'),
    parent: c.reader('parent_id'),
    number: c.reader('product_number'),
    active: c.reader('active'),
    stock: c.reader('stock'),
    name: c.reader('name'),
    description: c.reader('description'),
    net: c.reader('price_net'),
    gross: c.reader('price_gross'),
    rate: c.reader('tax_rate'),
    ean: c.reader('ean'),
    manufacturer: c.reader('manufacturer_name'),
    cover: c.reader('cover_media_url'),
    categories: c.reader('categories'),
    variants: c.reader('variants'),
  };
  /** The last row without parent: held one row, to see whether its variants follow it. */
  let held: Row | undefined;
  /** Parents whose variants followed them, by id: their fields pass on to their variants. */
  const parents = new Map<string, Row>();

  const toRow = (record: SourceRecord): Row => {
    const notes: string[] = [];
    const id = read.id(record);
    const number = read.number(record);
    const key = number || (id ? `shopware:id:${id}` : '');
    const fields: RawFields = {};
    put(fields, 'sku', number);
    put(fields, 'name', read.name(record));
    put(fields, 'description', read.description(record));
    const gross = read.gross(record);
    put(fields, 'price', gross || read.net(record));
    put(fields, 'quantity', read.stock(record));
    put(fields, 'brand', read.manufacturer(record));
    put(fields, 'barcode', read.ean(record));
    put(fields, 'category', read.categories(record));
    put(fields, 'images', splitList(read.cover(record)));
    const draft: Draft & { kind: 'product' } = { kind: 'product', record, fields, notes };
    if (id !== '') draft.platformKey = `shopware:id:${id}`;
    if (number === '' && key !== '') {
      draft.derivedKey = key;
      draft.derivedFrom = fromId('id', id);
      notes.push(`key derived (no product_number): ${key}, not sent as sku`);
    }
    const active = read.active(record);
    if (active !== '') draft.state = stateOf(active);
    return { draft, id, key, rate: read.rate(record), gross: gross !== '' };
  };

  const finish = (row: Row): Draft => {
    row.draft.tax = row.gross
      ? { basis: 'gross' }
      : row.rate
        ? { basis: 'net', rate: row.rate }
        : { basis: 'net' };
    return row.draft;
  };

  const release = (): Draft[] => {
    const out = held && !parents.has(held.id) ? [finish(held)] : [];
    held = undefined;
    return out;
  };

  return {
    push(record) {
      const parentId = read.parent(record);
      if (parentId === '') {
        const drafts = release();
        const variants = read.variants(record);
        if (variants !== '') {
          const row = toRow(record);
          const reason = `product with variants (${variants}): its variants are not rows of this file, and the parent is not sold on its own`;
          return [...drafts, { kind: 'skipped', record, key: row.key, reason }];
        }
        held = toRow(record);
        return drafts;
      }
      const row = toRow(record);
      const drafts: Draft[] = [];
      if (held && held.id === parentId) {
        // The first variant after its parent: the parent is a container, merged into it.
        parents.set(held.id, held);
        drafts.push({
          kind: 'merged',
          record: held.draft.record,
          key: held.key,
          intoRow: record.row,
          reason: `Shopware product "${held.key}" has variants: each variant is its own product; merged into its first variant, row ${record.row}`,
        });
        held = undefined;
      } else drafts.push(...release());
      const parent = parents.get(parentId);
      if (parent) {
        const own = { ...row.draft.fields };
        inherit(row.draft.fields, parent.draft.fields, INHERITED);
        row.draft.inheritsFrom = [parent.draft.record];
        if (own.price === undefined && parent.draft.fields.price !== undefined) {
          row.gross = parent.gross;
          row.rate ||= parent.rate;
        }
        if (!row.draft.state && parent.draft.state) row.draft.state = parent.draft.state;
        else if (
          row.draft.state?.status === 'active' &&
          parent.draft.state &&
          parent.draft.state.status !== 'active'
        )
          row.draft.state = {
            status: parent.draft.state.status,
            says: `its parent: ${parent.draft.state.says}`,
          };
      } else {
        row.draft.notes.push(`parent ${parentId} is not just before its variants: nothing inherited from it`);
      }
      drafts.push(finish(row));
      return drafts;
    },
    end: release,
  };
}

function stateOf(active: string): SourceState {
  return active === '0' || active.toLowerCase() === 'false'
    ? { status: 'draft', says: 'Shopware active 0' }
    : { status: 'active', says: `Shopware active ${active}` };
}
