import type { SourceRecord } from '../interfaces.js';
import { namedValues } from '../named-values.js';
import { blankColumnLines } from './blank-columns.js';
import { checkPreset, detectPreset, localizedHeader } from './detect-preset.js';
import type { ReadAs } from './field-names.js';
import { genericNames } from './generic-names.js';
import type { MappingSpec } from './mapping-file.js';
import { refuseMisspeltHeader, refuseNearlyFit } from './misspelt-header.js';
import { type LocalizedHeader, PRESETS, type Preset, type RowMapper } from './presets/index.js';
import { sourceList } from './source-lists.js';

/** What the mapper uses of the preset that reads a source. */
export type ChosenPreset = Pick<Preset, 'fields' | 'create' | 'decimalStyle' | 'localize' | 'prices'>;

/** The preset that reads a source, and the names it reads the source's columns by. */
export interface PresetChoice {
  base: ChosenPreset;
  /** The preset's name, or `mapping <file>` for a mapping file alone. */
  label: string;
  /** For the summary: how the preset was chosen, and how its columns are read. */
  detections: string[];
  /** One name per source column: the preset's own where the header was localized or folded. */
  presetColumns: readonly string[];
  /** Renames a record's values to `presetColumns`; absent when they are the source's own. */
  rename?: (record: SourceRecord) => SourceRecord;
  /** The generic preset's columns read as a product field of another name (`stock` → quantity). */
  readAs: ReadAs;
  /** The generic preset's name for each column or key (PresetRun.nameOf); absent: their own. */
  nameOf?: (column: string) => string;
  /** The generic preset's: why a row has no name, where a column near it is sent (PresetRun.unnamed). */
  unnamed?: () => string | undefined;
  /**
   * Summary lines known only once the records are read (a JSON source's keys, generic-keys.ts):
   * said at `at` among `detections`, the keys met so far.
   */
  said?: { at: number; lines: () => string[] };
}

/** Mapping file alone: every field comes from the mapping. */
const mappingOnly: ChosenPreset = {
  decimalStyle: 'auto',
  fields: () => [],
  create: (): RowMapper => ({
    push: (record) => [{ kind: 'product', record, fields: {}, notes: [] }],
    end: () => [],
  }),
};

/**
 * The preset named (`--preset`, the mapping file's `preset`, a store's platform), or a mapping file
 * alone, or the preset the header shows; then the header as that preset reads it: a WooCommerce
 * header in the store's language by WooCommerce's names, a generic header's `SKU`, `Price` or `stock`
 * as the field it names (presets/generic-header.ts).
 */
export function choosePreset(
  options: {
    preset?: string;
    presetOrigin?: string;
    mapping?: MappingSpec;
    openColumns?: boolean;
    matchBy?: string | undefined;
  },
  columns: readonly string[],
  sample: readonly SourceRecord[],
): PresetChoice {
  const { mapping } = options;
  const named = options.preset ?? mapping?.preset;
  const detections: string[] = [];
  let base: ChosenPreset;
  let label: string;
  let localized: LocalizedHeader | undefined;
  let readAs: ReadAs = new Map<string, string>();
  if (named !== undefined) {
    const name = checkPreset(named, columns, sample);
    base = PRESETS[name];
    label = name;
    localized = localizedHeader(PRESETS[name], columns, sample);
    const how = localized ? `; read by ${localized.says}` : '';
    detections.push(
      `preset ${name} (${options.preset !== undefined ? (options.presetOrigin ?? '--preset') : `from ${mapping?.origin}`}${how})`,
    );
    // A mapping file's fields replace or add to the named preset's: said, or the summary reads as if
    // the preset alone had read the source (a store's platform names the preset, --mapping its fields).
    const mapped = Object.keys(mapping?.fields ?? {});
    if (options.preset !== undefined && mapping && mapped.length > 0)
      detections.push(
        `fields from the mapping file ${mapping.origin} over the ${name} preset's: ${mapped.join(', ')}`,
      );
  } else if (mapping) {
    base = mappingOnly;
    label = `mapping ${mapping.origin}`;
    detections.push(`fields from the mapping file ${mapping.origin}`);
  } else {
    const detected = detectPreset(columns, sample);
    if (detected.name === 'generic') refuseNearlyFit(columns, sample);
    base = PRESETS[detected.name];
    label = detected.name;
    localized = detected.localized;
    detections.push(detected.reason);
  }
  let nameOf: ((column: string) => string) | undefined;
  let unnamed: (() => string | undefined) | undefined;
  let said: PresetChoice['said'];
  let presetColumns = localized?.columns ?? columns;
  if (label === 'generic' && !localized) {
    // `--match-by` changes none of this (match-field.ts): read otherwise than by a run without it
    // (`EAN` as ean where every other run reads barcode), the run found none of the products those
    // runs made, and created them all again.
    const generic = genericNames(columns, {
      ...(mapping ? { mapping } : {}),
      open: options.openColumns === true,
    });
    ({ presetColumns, nameOf, readAs, unnamed } = generic);
    // Options then name the field, not the column: checked where they are (field-names.ts readAsLine).
    const { lines } = generic;
    if (typeof lines === 'function') said = { at: detections.length, lines };
    else detections.push(...lines);
  }
  // A CSV's blank header cells: which the preset named by their place, which hold data no one reads.
  if (options.openColumns !== true)
    detections.push(
      ...blankColumnLines({
        columns,
        presetColumns,
        sample,
        ...(mapping ? { mapping } : {}),
        generic: label === 'generic',
      }),
    );
  const choice: PresetChoice = { base, label, detections, presetColumns, readAs };
  if (nameOf) choice.nameOf = nameOf;
  if (unnamed) choice.unnamed = unnamed;
  if (said) choice.said = said;
  // Another preset reads a localized header by its own names: records are renamed on the way in.
  if (localized) choice.rename = renamer(columns, localized.columns, options.openColumns === true);
  // A platform preset's column mistyped in the header is never read: refused, not synced without it.
  if (base !== mappingOnly && label !== 'generic')
    refuseMisspeltHeader(label, base, {
      columns,
      presetColumns,
      sample: choice.rename ? sample.map(choice.rename) : sample,
      open: options.openColumns === true,
      ...(mapping ? { mapping } : {}),
    });
  return choice;
}

/**
 * Renames a record's columns to the preset's names. `openColumns` (JSON, NDJSON, XML): a record may
 * bring a name the first one lacked (`color` in the second item only); it is kept as written, as
 * without the renaming, rather than dropped.
 */
function renamer(
  columns: readonly string[],
  names: readonly string[],
  openColumns: boolean,
): (record: SourceRecord) => SourceRecord {
  const pairs = columns.map((column, i) => [column, names[i] ?? column] as const);
  const known = new Set(columns);
  return (record) => {
    const values = namedValues();
    const lists = record.lists ? namedValues<string[]>() : undefined;
    const copy = (column: string, name: string) => {
      const value = record.values[column];
      if (value === undefined || values[name] !== undefined) return;
      values[name] = value;
      // A list the source gave (`"Tags": [...]`) stays a list under the preset's name.
      const list = lists && sourceList(record, column);
      if (lists && list) lists[name] = [...list];
    };
    for (const [column, name] of pairs) copy(column, name);
    if (openColumns) for (const column in record.values) if (!known.has(column)) copy(column, column);
    return lists ? { ...record, values, lists } : { ...record, values };
  };
}
