import type { MappedRow, SourceRecord } from '../interfaces.js';
import type { DecimalStyle } from './decimal.js';
import { createDecimalReader } from './decimal-reader.js';
import { checkPreset, detectPreset } from './detect-preset.js';
import { CatalogConfigError } from './errors.js';
import { kindOf } from './fields.js';
import { type CompiledMapping, compileMapping } from './mapping.js';
import type { MappingSpec } from './mapping-file.js';
import { type Draft, PRESETS, type Preset, type PresetName, type RowMapper } from './presets/index.js';
import type { FieldSpec } from './transforms.js';
import { finishDraft, type RowRules, type SeenKeys } from './validate.js';

export interface MapperOptions {
  /** The source's header (`openSource(...).columns`). */
  columns: string[];
  /** `--preset`; detected from the columns when absent (and no mapping file is given). */
  preset?: PresetName | string;
  /** `--mapping`: its fields replace or add to the preset's; without a preset, they are all there is. */
  mapping?: MappingSpec;
  /** `--fields`: exactly the fields sent (the match field only when listed; rows keep their key). */
  fields?: string[];
  /** `--match-by` (default `sku`). */
  matchBy?: string;
  /** Overrides the preset's and the mapping file's decimal style. */
  decimalStyle?: DecimalStyle;
  /** The CSV delimiter: `;` suggests comma decimals. */
  delimiter?: string;
  /** `--only-published`: rows the source does not sell are skipped, not sent with a status. */
  onlyPublished?: boolean;
}

export interface Mapper {
  /** The preset in use (`generic`, `shopify` …), or `mapping <file>` for a mapping file alone. */
  preset: string;
  /** One line per decision made from the source, for the user (preset detected, decimal style …). */
  detections: string[];
  /** The fields that can be sent, after `--fields`. */
  fields: string[];
  /** Every record yields exactly one row (a group's rows come out when the group closes). */
  map(records: AsyncIterable<SourceRecord>): AsyncIterable<MappedRow>;
}

/** Mapping file alone: every field comes from the mapping. */
const mappingOnly: Pick<Preset, 'fields' | 'create' | 'decimalStyle'> = {
  decimalStyle: 'auto',
  fields: () => [],
  create: (): RowMapper => ({
    push: (record) => [{ kind: 'product', record, fields: {}, notes: [] }],
    end: () => [],
  }),
};

export function createMapper(options: MapperOptions): Mapper {
  const { columns, mapping } = options;
  const detections: string[] = [];
  const named = options.preset ?? mapping?.preset;
  let base: Pick<Preset, 'fields' | 'create' | 'decimalStyle'>;
  let label: string;
  if (named !== undefined) {
    const name = checkPreset(named, columns);
    base = PRESETS[name];
    label = name;
    detections.push(
      `preset ${name} (${options.preset !== undefined ? '--preset' : `from ${mapping?.origin}`})`,
    );
  } else if (mapping) {
    base = mappingOnly;
    label = `mapping ${mapping.origin}`;
    detections.push(`fields from the mapping file ${mapping.origin}`);
  } else {
    const detected = detectPreset(columns);
    base = PRESETS[detected.name];
    label = detected.name;
    detections.push(detected.reason);
  }

  const compiled = mapping ? compileMapping(mapping, columns) : undefined;
  const available = availableFields(base.fields(columns), compiled);
  const matchBy = options.matchBy ?? mapping?.matchBy ?? 'sku';
  if (!available.includes(matchBy)) {
    throw new CatalogConfigError(
      `--match-by ${matchBy}: no column of this source gives the field "${matchBy}" (fields: ${available.join(', ') || 'none'})`,
    );
  }
  const send = options.fields ? checkFields(options.fields, available) : undefined;

  const style = [options.decimalStyle, mapping?.decimal, base.decimalStyle].find(
    (s) => s !== undefined && s !== 'auto',
  );
  const suggested = !style && options.delimiter === ';' ? 'comma' : undefined;
  if (style) detections.push(`decimals with a ${style}`);
  else if (suggested)
    detections.push('decimals: a comma unless the file shows otherwise (the file is ;-delimited)');

  const specs: Record<string, FieldSpec> = compiled?.specs ?? {};
  const rules: RowRules = {
    matchBy,
    specOf: (field) => specs[field] ?? { kind: kindOf(field) },
    readDecimal: createDecimalReader(style ?? 'auto', suggested),
  };
  if (send) rules.send = send;
  if (options.onlyPublished) rules.onlyPublished = true;

  return {
    preset: label,
    detections,
    fields: send ? available.filter((field) => send.has(field)) : available,
    async *map(records) {
      const rowMapper = base.create(columns);
      const seen: SeenKeys = new Map();
      const finish = (draft: Draft): MappedRow => {
        if (draft.kind === 'product' && compiled) compiled.apply(draft.record, draft.fields);
        return finishDraft(draft, rules, seen);
      };
      for await (const record of records) {
        if (record.problem !== undefined) {
          yield finish({ kind: 'invalid', record, reason: record.problem });
          continue;
        }
        for (const draft of rowMapper.push(record)) yield finish(draft);
      }
      for (const draft of rowMapper.end()) yield finish(draft);
    },
  };
}

function availableFields(presetFields: string[], compiled: CompiledMapping | undefined): string[] {
  if (!compiled) return presetFields;
  const kept = presetFields.filter((field) => !compiled.removed.includes(field));
  return [...new Set([...kept, ...compiled.fields])];
}

function checkFields(wanted: string[], available: string[]): Set<string> {
  const unknown = wanted.filter((field) => !available.includes(field));
  if (unknown.length > 0) {
    throw new CatalogConfigError(
      `--fields: unknown field ${unknown.map((f) => `"${f}"`).join(', ')} (this source gives: ${available.join(', ')})`,
    );
  }
  return new Set(wanted);
}
