import type { SourceRecord } from '../../interfaces.js';
import { namedValues } from '../../named-values.js';
import { Columns, put } from './columns.js';
import { inherit, Parents } from './parents.js';
import type { Draft, Preset, RawFields, RowMapper } from './types.js';

/** Amazon's own templates open with a `TemplateType=…` row (and a row of labels) before the header. */
export function isAmazonTemplatePreamble(columns: readonly string[]): boolean {
  return /^TemplateType=/i.test(columns[0] ?? '');
}

const SKU = ['item_sku', 'sku', 'seller-sku', 'seller_sku'];
/** The product name's column, Amazon's own name first. */
const NAME = ['item_name', 'product_name', 'title'];
const IMAGES = ['main_image_url', ...Array.from({ length: 8 }, (_, i) => `other_image_url${i + 1}`)];
const INHERITED = ['description', 'brand', 'images'] as const;

/**
 * Amazon inventory flat file (tab-delimited). Variation parents (`parent_child` or `parentage` =
 * parent) are not buyable on Amazon either: a parent is merged into its first child, whose name it
 * lends where the child has none; a price on a parent row is not sent. `update_delete=Delete` is
 * invalid: the Seller API has no delete. When the template rows come first, the header is found by
 * its signature (a row holding `item_sku` or `sku`) and the rows before it are merged into it.
 */
export const amazon: Preset = {
  name: 'amazon',
  signature: {
    required: [SKU],
    distinctive: [
      'parent_child',
      'parentage',
      'parent_sku',
      'relationship_type',
      'variation_theme',
      'standard_price',
      'item_name',
      'external_product_id',
      'update_delete',
      'feed_product_type',
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
    'brand',
    'barcode',
    'images',
  ],
  create: (columns) =>
    isAmazonTemplatePreamble(columns.all) ? afterTemplateRows(columns.all) : createAmazonMapper(columns),
};

function afterTemplateRows(preamble: readonly string[]): RowMapper {
  let mapper: RowMapper | undefined;
  let header: string[] = [];
  const held: SourceRecord[] = [];
  return {
    push(record) {
      const cells = preamble.map((column) => (record.values[column] ?? '').trim());
      if (mapper) {
        const values = namedValues();
        header.forEach((name, i) => {
          const value = record.values[preamble[i]!];
          if (name !== '' && value !== undefined) values[name] = value;
        });
        return mapper.push({ ...record, values });
      }
      held.push(record);
      // Case matters: the labels row above says "SKU", the header row "item_sku" or "sku".
      if (!cells.some((cell) => SKU.includes(cell))) return [];
      header = cells;
      mapper = createAmazonMapper(new Columns(header.filter((name) => name !== '')));
      return held.map((row) => ({
        kind: 'merged',
        record: row,
        key: '',
        intoRow: record.row,
        reason:
          row === record
            ? 'Amazon template header row'
            : `Amazon template row before the header (row ${record.row})`,
      }));
    },
    end() {
      if (mapper) return mapper.end();
      return held.map((record) => ({
        kind: 'invalid',
        record,
        reason: 'Amazon template: no header row with item_sku or sku was found',
      }));
    },
  };
}

function createAmazonMapper(c: Columns): RowMapper {
  // A file with no name column (a price and quantity file, or one cut down): a new product cannot
  // be made from it, and the error says which column would hold the name.
  const unnamed = c.find(...NAME) === undefined ? `the file has no ${NAME[0]} column` : undefined;
  const read = {
    sku: c.reader(...SKU),
    parentage: c.reader('parent_child', 'parentage'),
    parentSku: c.reader('parent_sku'),
    name: c.reader(...NAME),
    description: c.reader('product_description'),
    price: c.reader('standard_price', 'price', 'your_price'),
    sale: c.reader('sale_price'),
    quantity: c.reader('quantity'),
    brand: c.reader('brand_name', 'brand'),
    barcode: c.reader('external_product_id'),
    action: c.reader('update_delete', 'operation-type'),
    variation: ['color_name', 'size_name'].map((name) => c.reader(name)),
    images: IMAGES.map((name) => c.reader(name)),
  };
  const parents = new Parents();

  return {
    push(record) {
      const key = read.sku(record);
      const fields: RawFields = {};
      put(fields, 'sku', key);
      put(fields, 'name', read.name(record));
      put(fields, 'description', read.description(record));
      put(fields, 'price', read.price(record));
      put(fields, 'sale_price', read.sale(record));
      put(fields, 'quantity', read.quantity(record));
      put(fields, 'brand', read.brand(record));
      put(fields, 'barcode', read.barcode(record));
      put(
        fields,
        'images',
        read.images.map((image) => image(record)).filter((url) => url !== ''),
      );

      if (read.action(record).toLowerCase() === 'delete') {
        return [
          { kind: 'invalid', record, key, reason: 'update_delete is Delete: the Seller API has no delete' },
        ];
      }
      const parentage = read.parentage(record).toLowerCase();
      if (parentage === 'parent') {
        const price = read.price(record);
        const describe = `Amazon variation parent "${key}"${price ? ` (its price ${price} is not sent: a parent is not buyable)` : ''}`;
        return parents.hold([key], { record, key, fields, describe });
      }
      const notes: string[] = [];
      const drafts: Draft[] = [];
      const draft: Draft & { kind: 'product' } = { kind: 'product', record, fields, notes };
      if (parentage === 'child') {
        const parentSku = read.parentSku(record);
        const claimed = parents.claim(parentSku, record);
        drafts.push(...claimed.drafts);
        if (parentSku === '') notes.push('variation child without parent_sku');
        else if (!claimed.parent) notes.push(`parent "${parentSku}" is not in this file before this child`);
        else {
          const parentName = claimed.parent.fields.name;
          const values = read.variation.map((value) => value(record)).filter((value) => value !== '');
          if (fields.name === undefined && typeof parentName === 'string') {
            fields.name = values.length > 0 ? `${parentName} - ${values.join(', ')}` : parentName;
          }
          inherit(fields, claimed.parent.fields, INHERITED);
          draft.inheritsFrom = [claimed.parent.record];
        }
      }
      if (unnamed && fields.name === undefined) draft.unnamed = unnamed;
      drafts.push(draft);
      return drafts;
    },
    end: () =>
      parents.leftovers((parent) => `Amazon variation parent "${parent.key}" has no children in this file`),
  };
}
