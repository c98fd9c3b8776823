import { countOf } from '../count-words.js';
import { DEFAULT_PRICE_DECIMALS } from '../defaults.js';
import type { Decimal, MappedRow, SourceRecord } from '../interfaces.js';
import { asNamedValues } from '../named-values.js';
import { blankRow, isBlankRecord } from './blank-record.js';
import { type DecimalStyle, toDecimal } from './decimal.js';
import { createDecimalReader, decimalChoice } from './decimal-reader.js';
import { learnDecimals } from './decimal-sample.js';
import { recordWithoutError, withoutErrorColumn } from './error-column.js';
import { CatalogConfigError } from './errors.js';
import type { ReadAs } from './field-names.js';
import { kindOf } from './fields.js';
import { compileMapping } from './mapping.js';
import type { MappingSpec } from './mapping-file.js';
import { matchField, type ReadColumns } from './match-field.js';
import { choosePreset } from './preset-choice.js';
import { readsWhenAsked } from './preset-reads.js';
import { Columns } from './presets/columns.js';
import type { Draft, PresetName, PresetRun, PriceBasis } from './presets/index.js';
import { UNSENDABLE_FIELD, unsendableReason } from './presets/unsendable.js';
import { SeenIds } from './seen-ids.js';
import { availableFields, checkFields, sendableFields } from './sent-fields.js';
import { SourceKeys } from './source-keys.js';
import type { FieldSpec } from './transforms.js';
import { type UnreadRowKeyParts, unreadRowKey } from './unread-row-key.js';
import { finishDraft, type RowRules } from './validate.js';

export interface MapperOptions {
  /** The source's header (`openSource(...).columns`). */
  columns: string[];
  /** `--preset`; detected from the columns when absent (and no mapping file is given). */
  preset?: PresetName | string;
  /** Where `preset` comes from, for the user: `--preset` when absent, `preset in nightly.yml`, a store's own platform. */
  presetOrigin?: string;
  /** `--mapping`: its fields replace or add to the preset's; without a preset, they are all there is. */
  mapping?: MappingSpec;
  /** `--fields`: exactly the fields sent (the match field only when listed; rows keep their key). */
  fields?: string[];
  /** Where `fields` comes from, for a refusal: `--fields` when absent, `fields in nightly.yml`. */
  fieldsOption?: string;
  /** `--match-by`; absent: the mapping file's `matchBy`, else `sku`. */
  matchBy?: string;
  /** `matchBy` as the user wrote it, for the summary and a refusal: `matchBy: ean in nightly.yml`. */
  matchByOption?: string;
  /** Overrides the preset's and the mapping file's decimal style (catalog/decimal-reader.ts). */
  decimalStyle?: DecimalStyle;
  /** The CSV delimiter: `;` suggests comma decimals. */
  delimiter?: string;
  /** The records are a store's API answers (shopify://, woocommerce://), not a file's lines. */
  fromStoreApi?: boolean;
  /**
   * The records name their own fields (JSON, NDJSON, XML: `OpenedSource.openColumns`): `columns`
   * are the first record's, and a later record may bring one they lack.
   */
  openColumns?: boolean;
  /** `--only-published`: rows the source does not sell are skipped, not sent with a status. */
  onlyPublished?: boolean;
  /**
   * `--missing` was given: a row skipped because the source does not sell it is a product the source
   * no longer offers (catalog/unsold.ts).
   */
  missing?: boolean;
  /** `--include-external`: a product sold on another site is sent rather than skipped. */
  includeExternal?: boolean;
  /** The first records (peekRecords): a header in the store's language is recognized by them. */
  sample?: readonly SourceRecord[];
  /** `--price-includes-tax`: send gross prices (the file's, or net plus the row's or --tax-rate's). */
  priceIncludesTax?: boolean;
  /** `--tax-rate P%` (`20`, `7.7`): the rate added to net prices a row gives no rate for; implies gross. */
  taxRate?: string;
  /** `--price-decimals N`: a price or sale price with more decimals is sent rounded half up (default 2). */
  priceDecimals?: number;
  /**
   * The run's start (epoch ms), when a scheduled sale is judged running or not (PresetRun); absent:
   * the moment the mapper is made, which is the run's start. Tests pass their own.
   */
  now?: number;
}

export interface Mapper {
  /** The preset in use (`generic`, `shopify` …), or `mapping <file>` for a mapping file alone. */
  preset: string;
  /**
   * One line per decision made from the source, for the user (preset detected, decimal style …).
   * Read when said: a JSON source's keys are said as its records bring them (generic-keys.ts).
   */
  readonly detections: string[];
  /** The fields that can be sent, after `--fields`. */
  fields: string[];
  /** Every field the preset or mapping gives for this source, before `--fields`. */
  sourceFields: string[];
  /**
   * The source's columns read as a product field of another name (the generic preset's `stock` as
   * quantity): an option naming the column is refused (field-names.ts readAsLine).
   */
  readAs: ReadAs;
  /** The field that identifies a product: `--match-by`, else the mapping file's `matchBy`, else `sku`. */
  matchBy: string;
  /** The match column's own names where it is read as the match field under another (match-field.ts). */
  matchColumnNames: string[];
  /**
   * Every record yields exactly one row (a group's rows come out when the group closes). `parents`
   * hears of each row that took product fields from other records (a variant's parent), before any
   * row that came out with it is yielded: a parent comes out with its first child.
   */
  map(records: AsyncIterable<SourceRecord>, parents?: ParentNotes): AsyncIterable<MappedRow>;
}

/**
 * Told which records a row took product fields from (SourceRowCapture keeps their values for the
 * report). The records are the preset's own objects: the same object each time it names a parent.
 */
export interface ParentNotes {
  inherits(row: number, parents: readonly SourceRecord[]): void;
  /**
   * A record merged into another row: a variation parent may be given out before the children that
   * name it (a WooCommerce parent written after its first variation, a Magento configurable merged
   * into a visible first child), so its values are kept while the preset holds the record.
   */
  remember(merged: SourceRecord): void;
}

export function createMapper(options: MapperOptions): Mapper {
  const { mapping } = options;
  // A file from `report --failed-only` reads as the source it came from: its `error` column is not there.
  const columns = withoutErrorColumn(options.columns);
  const sample = (options.sample ?? []).map(recordWithoutError);
  const { base, label, detections, presetColumns, rename, readAs, nameOf, unnamed, said } = choosePreset(
    options,
    columns,
    sample,
  );

  const compiled = mapping
    ? compileMapping(mapping, columns, options.openColumns ? { sample } : undefined)
    : undefined;
  const available = availableFields(base.fields(presetColumns), compiled);
  if (available.includes(UNSENDABLE_FIELD)) throw new CatalogConfigError(unsendableReason('the source'));
  const generic = label === 'generic';
  const read: ReadColumns = { columns, readAs, generic };
  // A platform preset's columns, for `--match-by title`: read by its own row mapper, if asked.
  if (!generic && base.fields(presetColumns).length > 0)
    read.preset = {
      name: label,
      reads: readsWhenAsked({
        columns,
        presetColumns,
        sample: rename ? sample.map(rename) : sample,
        create: () =>
          base.create(new Columns(presetColumns, options.openColumns === true), {
            now: options.now ?? Date.now(),
          }),
        given: Object.keys(mapping?.fields ?? {}),
      }),
    };
  const match = matchField(options.matchBy, mapping, available, read, generic, options.matchByOption);
  const { field: matchBy } = match;
  if (match.line) detections.push(match.line);
  const send = options.fields
    ? checkFields(options.fields, available, readAs, options.fieldsOption)
    : undefined;
  const run: PresetRun = { now: options.now ?? Date.now() };
  if (nameOf) run.nameOf = nameOf;
  if (unnamed) run.unnamed = unnamed;
  if (send && !send.has('sale_price')) run.salePriceUnsent = true;

  const choice = decimalChoice(options, base.decimalStyle, label);
  const decimals = createDecimalReader(choice);
  // A preset compares a row's values (Shopify's compare-at and price) as the file's style reads them.
  run.readDecimal = decimals.read;

  const specs: Record<string, FieldSpec> = compiled?.specs ?? {};
  // A field's kind by its name, made once per field rather than once per field of every row.
  const kinds = new Map<string, FieldSpec>();
  const kindSpec = (field: string): FieldSpec => {
    const known = kinds.get(field);
    if (known) return known;
    const spec: FieldSpec = { kind: kindOf(field) };
    kinds.set(field, spec);
    return spec;
  };
  const rules: RowRules = {
    matchBy,
    // Own keys only: a column named `valueOf` or `constructor` is a field, not Object's method.
    specOf: (field) => (Object.hasOwn(specs, field) ? (specs[field] as FieldSpec) : kindSpec(field)),
    readDecimal: decimals.read,
    priceDecimals: options.priceDecimals ?? DEFAULT_PRICE_DECIMALS,
  };
  if (send) rules.send = send;
  if (options.onlyPublished) rules.onlyPublished = true;
  if (options.missing) rules.missing = true;
  if (options.includeExternal) rules.includeExternal = true;
  // Before the first row: a style the file shows anywhere in its sample applies to all its rows.
  if (!choice.fixed)
    learnDecimals(
      sample,
      base.create(new Columns(presetColumns, options.openColumns === true), run),
      rename,
      compiled,
      rules,
    );
  const { line } = decimals.decision();
  if (line) detections.push(line);
  const gross = pricesSent(base.prices?.(presetColumns), options, detections);
  if (gross) rules.gross = gross;

  return {
    preset: label,
    get detections() {
      return said
        ? [...detections.slice(0, said.at), ...said.lines(), ...detections.slice(said.at)]
        : detections;
    },
    matchBy,
    matchColumnNames: match.columnNames,
    fields: send ? sendableFields(available).filter((field) => send.has(field)) : available,
    sourceFields: available,
    readAs,
    async *map(records, parents) {
      const rowMapper = base.create(new Columns(presetColumns, options.openColumns === true), run);
      const seen = new SourceKeys();
      const unreadParts: UnreadRowKeyParts = {
        createRowMapper: () => base.create(new Columns(presetColumns, options.openColumns === true), run),
        rename,
        compiled,
        rules,
      };
      const seenIds = new SeenIds();
      // A renamed record's draft is finished with the record as the source wrote it (mapping files
      // name the source's own columns).
      const originals = new WeakMap<SourceRecord, SourceRecord>();
      const finish = (renamed: Draft): MappedRow => {
        const record = originals.get(renamed.record) ?? renamed.record;
        const draft = record === renamed.record ? renamed : { ...renamed, record };
        if (draft.kind === 'product' && compiled) compiled.apply(draft.record, draft.fields);
        const row = seenIds.check(finishDraft(draft, rules, seen));
        // Refused for want of a key only because it holds nothing at all: it stands for no product.
        if (row.kind === 'invalid' && row.key === undefined && isBlankRecord(record))
          return blankRow(row.row, row.line);
        return row;
      };
      // Told before any draft of the batch is yielded: the parent's own row is then not taken yet.
      const noteParents = (drafts: Draft[]) => {
        if (!parents) return drafts;
        for (const draft of drafts) {
          if (draft.kind === 'merged') parents.remember(draft.record);
          else if (draft.kind === 'product' && draft.inheritsFrom)
            parents.inherits(draft.record.row, draft.inheritsFrom);
        }
        return drafts;
      };
      for await (const read of records) {
        // Every read of a column below is a plain index: a name the record lacks must find nothing
        // (the readers' values have no prototype; a caller's may).
        const named = asNamedValues(read.values);
        const record = recordWithoutError(named === read.values ? read : { ...read, values: named });
        if (record.problem !== undefined) {
          const key = record.cellsInPlace ? unreadRowKey(record, unreadParts) : undefined;
          yield finish({ kind: 'invalid', record, reason: record.problem, ...(key ? { key } : {}) });
          continue;
        }
        let pushed = record;
        if (rename) {
          pushed = rename(record);
          originals.set(pushed, record);
        }
        for (const draft of noteParents(rowMapper.push(pushed))) yield finish(draft);
      }
      for (const draft of noteParents(rowMapper.end())) yield finish(draft);
    },
  };
}

/**
 * `--price-includes-tax`, `--tax-rate P%` (README, Options of `run` and `import`): which prices are
 * sent, said in the summary.
 * Without the flags the file's prices go as they are; the summary says so where they are net of
 * tax. With them, gross: refused at once when a net price could never get a rate.
 */
function pricesSent(
  basis: PriceBasis | undefined,
  options: Pick<MapperOptions, 'priceIncludesTax' | 'taxRate' | 'priceDecimals'>,
  detections: string[],
): { rate?: Decimal } | undefined {
  const rate = options.taxRate === undefined ? undefined : toDecimal(options.taxRate);
  if (options.taxRate !== undefined && rate === null)
    throw new CatalogConfigError(`--tax-rate: "${options.taxRate}" is not a percentage`);
  const wanted = options.priceIncludesTax === true || rate !== undefined;
  const note = basis?.note ? `; ${basis.note}` : '';
  if (!wanted) {
    if (basis?.basis === 'net')
      detections.push(
        `prices: net of tax, sent as the file has them (${basis.from}${note}; ${roundedTo(options)}); --price-includes-tax with --tax-rate P% sends gross`,
      );
    else if (basis?.basis === 'gross')
      detections.push(
        `prices: ${basis.from}, tax included, sent as the file has them (${roundedTo(options)})`,
      );
    else if (basis)
      detections.push(`prices: ${basis.from}, sent as the file has them (${roundedTo(options)})`);
    return undefined;
  }
  if (basis?.basis === 'gross') {
    detections.push(`prices: ${basis.from}, tax included: sent as they are`);
    return {};
  }
  if (rate === undefined && !basis?.rates) {
    const what = basis ? `are net of tax (${basis.from}${note})` : 'are as the store enters them';
    throw new CatalogConfigError(
      `--price-includes-tax: this file's prices ${what} and it gives no tax rate: add --tax-rate P%`,
    );
  }
  const from = basis?.from ?? "the file's prices";
  const added = basis?.rates
    ? `the row's own tax rate${rate !== undefined ? `, else ${rate}% (--tax-rate),` : ''}`
    : `${rate}% tax (--tax-rate)`;
  const where = basis?.basis === 'mixed' ? ' to a net price' : '';
  const places = options.priceDecimals ?? DEFAULT_PRICE_DECIMALS;
  const rounded = places === 2 ? 'cents' : `${places} decimal${places === 1 ? '' : 's'}`;
  detections.push(`prices: sent gross: ${from}, with ${added} added${where}, rounded to ${rounded}`);
  return rate !== undefined && rate !== null ? { rate } : {};
}

/** What a price with more decimals than money has becomes (money.ts): said beside "as the file has them". */
function roundedTo(options: Pick<MapperOptions, 'priceDecimals'>): string {
  const decimals = options.priceDecimals ?? DEFAULT_PRICE_DECIMALS;
  return `rounded half up where they have more than ${countOf(decimals, 'decimal')}`;
}
