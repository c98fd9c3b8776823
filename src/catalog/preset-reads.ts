import type { SourceRecord } from '../interfaces.js';
import type { RowMapper } from './presets/index.js';

/** What presetReads runs: the preset's own row mapper over the columns as it names them. */
export interface PresetProbe {
  /** The source's columns as its header writes them (the names `--match-by` is given). */
  columns: readonly string[];
  /** The preset's name for each of them, in the same order (a localized header's, read back). */
  presetColumns: readonly string[];
  /** The first records, by `presetColumns` (renamed where the header was localized). */
  sample: readonly SourceRecord[];
  /** A fresh row mapper of the preset, as a run makes one. */
  create: () => RowMapper;
  /** Fields a mapping file gives over the preset's: no column of the preset is read as them. */
  given: readonly string[];
}

/**
 * The columns a platform preset reads as a product field, each with its field (`title` → name in a
 * Google Merchant feed, `Variant Barcode` → barcode in a Shopify export), for `--match-by` given a
 * column (match-field.ts). Asked of the preset's own row mapper, not of a table kept beside it that
 * could say otherwise than the rows are read: one column's cell is marked in a blank record and in
 * each sample record, and the field the mark comes out in is the column's. A preset reads some
 * columns only with others (a Shopify row without its handle is no product), hence the sample's
 * records as the file writes them. A column is read as a field only when every record that came out
 * as a product has its mark in that one field: one that stands in for another only where that one is
 * blank (WooCommerce's `Short description`, Google's `google_product_category`) is not.
 */
export function presetReads(probe: PresetProbe): ReadonlyMap<string, string> {
  const blank: SourceRecord = {
    row: 1,
    line: 2,
    values: Object.fromEntries(probe.presetColumns.map((column) => [column, ''])),
  };
  const bases = [blank, ...probe.sample];
  const reads = new Map<string, string>();
  probe.presetColumns.forEach((name, i) => {
    const mark = `zzprobe${i}zz`;
    const found = new Set<string>();
    let products = 0;
    for (const base of bases) {
      const fields = markedFields(probe.create, marked(base, name, mark), mark);
      if (fields === undefined) continue;
      products++;
      if (fields.length === 0) return;
      for (const field of fields) found.add(field);
    }
    const [field] = found;
    const column = probe.columns[i];
    if (products > 0 && found.size === 1 && field !== undefined && column !== undefined)
      if (!probe.given.includes(field)) reads.set(column, field);
  });
  return reads;
}

/** presetReads, found the first time it is asked for: only `--match-by` naming no field asks. */
export function readsWhenAsked(probe: PresetProbe): () => ReadonlyMap<string, string> {
  let reads: ReadonlyMap<string, string> | undefined;
  return () => {
    reads ??= presetReads(probe);
    return reads;
  };
}

/** `base` with `column`'s cell (its list too, where the source gave one) holding `mark` alone. */
function marked(base: SourceRecord, column: string, mark: string): SourceRecord {
  const record: SourceRecord = { ...base, values: { ...base.values, [column]: mark } };
  if (base.lists) record.lists = { ...base.lists, [column]: [mark] };
  return record;
}

/**
 * The fields of the product `record` comes out as whose value is `mark` (a list: one of its items);
 * undefined when it comes out as no product (invalid, skipped, merged) or the preset throws on it.
 */
function markedFields(create: () => RowMapper, record: SourceRecord, mark: string): string[] | undefined {
  let drafts: ReturnType<RowMapper['push']>;
  try {
    const mapper = create();
    drafts = [...mapper.push(record), ...mapper.end()];
  } catch {
    return undefined;
  }
  const product = drafts.find((draft) => draft.kind === 'product');
  if (product?.kind !== 'product') return undefined;
  return Object.entries(product.fields)
    .filter(([, value]) => (Array.isArray(value) ? value.includes(mark) : value === mark))
    .map(([field]) => field);
}
