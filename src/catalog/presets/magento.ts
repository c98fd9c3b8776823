import type { SourceRecord } from '../../interfaces.js';
import { splitList } from '../fields.js';
import { type Columns, put } from './columns.js';
import { inherit } from './parents.js';
import { MAGENTO_WRITES, magentoSaleDate, timedSale, twoDates } from './sale-dates.js';
import type { Draft, Preset, PresetRun, RawFields, RowMapper, SourceState } from './types.js';

const INHERITED = ['description', 'category', 'images'] as const;
const NOT_VISIBLE = new Set(['not visible individually', '1']);

/**
 * Magento 2 product import/export CSV. A row with a `store_view_code` is a store view's translation
 * of the default row with the same SKU: merged into it, not a second product (a store-view row that
 * comes before its default row is invalid). `special_price` is the sale price.
 *
 * Published state: `product_online` 1 is enabled, 0 (or 2, the status id) disabled: sent as draft.
 * A simple that is "Not Visible Individually" is sold through the configurable or grouped product
 * that lists it (`configurable_variations`, `associated_skus`): then it is a product of its own
 * here, as a Woo variation is; listed by none in the file, it is hidden. Such rows wait for their
 * parent (Magento writes children before their configurable) until the end of the file.
 *
 * Containers: a configurable product is merged into its first variation (its description, images
 * and category pass on to variations that wait for it); a grouped product is skipped, its items
 * being rows of their own. A bundle is sold as one product; one with dynamic pricing is priced
 * from its parts, so its `price` cell is not its price and is not sent: created, it has none and
 * is skipped ("bundle priced from its parts"); an existing one is still updated. A bundle's
 * `special_price` is a percentage of its price in Magento, not a price: not sent as sale_price.
 * Another's is sent while it runs (`special_price_from_date`/`special_price_to_date`, sale-dates.ts).
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
    'status',
  ],
  create: (columns, run) => createMagentoMapper(columns, run),
};

interface Parent {
  record: SourceRecord;
  sku: string;
  type: 'configurable' | 'grouped';
  fields: RawFields;
  state?: SourceState;
}

function createMagentoMapper(c: Columns, run: PresetRun): RowMapper {
  const read = {
    sku: c.reader('sku'),
    storeView: c.reader('store_view_code'),
    type: c.reader('product_type'),
    name: c.reader('name'),
    description: c.reader('description'),
    short: c.reader('short_description'),
    price: c.reader('price'),
    special: c.reader('special_price'),
    specialFrom: c.reader('special_price_from_date'),
    specialTo: c.reader('special_price_to_date'),
    qty: c.reader('qty'),
    weight: c.reader('weight'),
    categories: c.reader('categories'),
    baseImage: c.reader('base_image'),
    additionalImages: c.reader('additional_images'),
    online: c.reader('product_online'),
    visibility: c.reader('visibility'),
    bundlePriceType: c.reader('bundle_price_type'),
    variations: c.reader('configurable_variations'),
    associated: c.reader('associated_skus'),
  };
  /** Default rows by SKU: the rows store-view translations are merged into. One entry per product. */
  const defaultRows = new Map<string, number>();
  /** Children named by a configurable or grouped product read so far, with that parent. */
  const listedBy = new Map<string, Parent>();
  /** Not-visible simples no parent has listed yet: they wait, at most until the end of the file. */
  const waiting = new Map<string, Draft & { kind: 'product' }>();
  /** Configurables whose variations have not shown up yet: merged into the first that does. */
  const unclaimed = new Map<string, { record: SourceRecord; parent: Parent }>();

  const ownState = (record: SourceRecord): SourceState | undefined => {
    const online = read.online(record);
    if (online !== '' && online !== '1')
      return { status: 'draft', says: `Magento product_online ${online} (disabled)` };
    if (online === '1') return { status: 'active', says: 'Magento product_online 1' };
    return undefined;
  };

  /** A not-visible simple that a parent lists: a product of its own, sold through that parent. */
  const asVariation = (draft: Draft & { kind: 'product' }, parent: Parent): Draft[] => {
    draft.notes.push(`sold through ${parent.type} product "${parent.sku}" (row ${parent.record.row})`);
    if (parent.type === 'configurable') {
      inherit(draft.fields, parent.fields, INHERITED);
      draft.inheritsFrom = [parent.record];
    }
    const own = draft.state;
    if (own === undefined || own.status === 'active') {
      draft.state =
        parent.state && parent.state.status !== 'active'
          ? { status: parent.state.status, says: `its ${parent.type} "${parent.sku}": ${parent.state.says}` }
          : { status: 'active', says: `sold through ${parent.type} "${parent.sku}"` };
    }
    return [...claim(String(draft.fields.sku ?? ''), draft.record), draft];
  };

  /** The configurable waiting for this child, merged into it now. */
  const claim = (sku: string, child: SourceRecord): Draft[] => {
    const parent = listedBy.get(sku);
    if (parent?.type !== 'configurable') return [];
    const held = unclaimed.get(parent.sku);
    if (!held) return [];
    unclaimed.delete(parent.sku);
    return [mergedConfigurable(held.record, parent.sku, child.row)];
  };

  const specialDates = (record: SourceRecord) =>
    twoDates(
      { column: 'special_price_from_date', text: read.specialFrom(record) },
      { column: 'special_price_to_date', text: read.specialTo(record) },
      magentoSaleDate,
      MAGENTO_WRITES,
    );

  const productFields = (record: SourceRecord, key: string): RawFields => {
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
    return fields;
  };

  return {
    push(record) {
      const key = read.sku(record);
      const storeView = read.storeView(record);
      if (storeView !== '') {
        const intoRow = defaultRows.get(key);
        if (intoRow === undefined) {
          const reason = `store view "${storeView}" row of "${key}" comes before its default row (empty store_view_code)`;
          return [{ kind: 'invalid', record, key, reason }];
        }
        const reason = `translation for store view "${storeView}": merged into the default row ${intoRow}`;
        return [{ kind: 'merged', record, key, intoRow, reason, sharesKey: true }];
      }
      if (key !== '' && !defaultRows.has(key)) defaultRows.set(key, record.row);
      const fields = productFields(record, key);
      const type = read.type(record).toLowerCase();
      const state = ownState(record);

      if (type === 'configurable' || type === 'grouped') {
        const children =
          type === 'configurable'
            ? variationSkus(read.variations(record))
            : groupedSkus(read.associated(record));
        const parent: Parent = { record, sku: key, type, fields };
        if (state) parent.state = state;
        const drafts: Draft[] = [];
        let firstChildRow: number | undefined;
        for (const child of children) {
          listedBy.set(child, parent);
          const held = waiting.get(child);
          if (held) {
            waiting.delete(child);
            drafts.push(...asVariation(held, parent));
          }
          const row = defaultRows.get(child);
          if (row !== undefined && (firstChildRow === undefined || row < firstChildRow)) firstChildRow = row;
        }
        if (type === 'grouped') {
          const reason = `grouped product: a set of products sold one by one, not a product of its own${children.length ? `; its items (${children.join(', ')}) are rows of their own` : ''}`;
          drafts.push({ kind: 'skipped', record, key, reason });
        } else if (firstChildRow !== undefined) {
          // Claimed by a child already read (waiting or not): that child's claim above found nothing.
          drafts.push(mergedConfigurable(record, key, firstChildRow));
        } else {
          unclaimed.set(key, { record, parent });
        }
        return drafts;
      }

      const product: Draft & { kind: 'product' } = { kind: 'product', record, fields, notes: [] };
      if (state) product.state = state;
      if (type === 'bundle') {
        bundlePrices(product, read.bundlePriceType(record));
        bundleStock(product);
      }
      const timed = timedSale(product, 'special_price', () => specialDates(record), run);
      if (timed.kind !== 'product') return [...claim(key, record), timed];
      const draft = timed;
      const visibility = read.visibility(record);
      if (NOT_VISIBLE.has(visibility.toLowerCase())) {
        const parent = listedBy.get(key);
        if (parent) return asVariation(draft, parent);
        if (state?.status !== 'active' && state !== undefined) return [draft];
        waiting.set(key, draft);
        return [];
      }
      return [...claim(key, record), draft];
    },
    end() {
      const drafts: Draft[] = [];
      for (const draft of waiting.values()) {
        draft.state = {
          status: 'hidden',
          says: 'Magento visibility Not Visible Individually, and no configurable or grouped product in this file lists it',
        };
        drafts.push(draft);
      }
      waiting.clear();
      for (const { record, parent } of unclaimed.values()) {
        drafts.push({
          kind: 'skipped',
          record,
          key: parent.sku,
          reason: `configurable product "${parent.sku}": none of its variations is in this file (a configurable is not sold on its own)`,
        });
      }
      unclaimed.clear();
      return drafts;
    },
  };
}

/**
 * A bundle has no stock of its own in Magento: it is sold while its parts are (the export writes its
 * qty as 0). Sent, that 0 would stop every sale of it.
 */
function bundleStock(draft: Draft & { kind: 'product' }): void {
  const { quantity } = draft.fields;
  if (quantity === undefined) return;
  delete draft.fields.quantity;
  draft.notes.push(`a bundle's stock is its parts' in Magento: its qty cell (${quantity}) is not sent`);
}

/** Magento's bundle prices: see the preset's comment. */
function bundlePrices(draft: Draft & { kind: 'product' }, priceType: string): void {
  const { fields, notes } = draft;
  if (fields.sale_price !== undefined) {
    notes.push(
      `special_price ${fields.sale_price} of a bundle is a percentage in Magento: not sent as sale_price`,
    );
    delete fields.sale_price;
  }
  if (priceType.toLowerCase() !== 'dynamic' && priceType !== '0') return;
  if (fields.price !== undefined)
    notes.push(
      `bundle_price_type dynamic: priced from its parts, its price cell (${fields.price}) is not sent`,
    );
  delete fields.price;
  draft.unpriced = 'bundle priced from its parts';
}

function mergedConfigurable(record: SourceRecord, key: string, intoRow: number): Draft {
  return {
    kind: 'merged',
    record,
    key,
    intoRow,
    reason: `configurable product "${key}": each variation is its own product; merged into its first variation, row ${intoRow}`,
  };
}

/** `sku=MH01-XS-Black,size=XS,color=Black|sku=MH01-S-Black,…` → the variations' SKUs. */
function variationSkus(text: string): string[] {
  return text
    .split('|')
    .map((block) => /(?:^|,)\s*sku=([^,]*)/.exec(block)?.[1]?.trim() ?? '')
    .filter((sku) => sku !== '');
}

/** `24-WG085=5.0000,24-WG086=5.0000` → the items' SKUs (the numbers are default quantities). */
function groupedSkus(text: string): string[] {
  return splitList(text)
    .map((pair) => pair.replace(/=[^=]*$/, '').trim())
    .filter((sku) => sku !== '');
}
