import type { SourceRecord } from '../interfaces.js';
import { trimCell } from './cell-text.js';
import { CatalogConfigError } from './errors.js';
import { kindOf, splitList } from './fields.js';
import type { FieldRule, MappingSpec } from './mapping-file.js';
import type { RawFields } from './presets/types.js';
import { sourceList } from './source-lists.js';
import { applyTextTransforms, type FieldSpec, specFromTransforms } from './transforms.js';

export interface CompiledMapping {
  /** Fields the mapping sets (or removes, when null) on top of the preset's. */
  fields: string[];
  removed: string[];
  specs: Record<string, FieldSpec>;
  /** Sets the mapping's fields on a draft's fields from the record (blank results are removed). */
  apply(record: SourceRecord, fields: RawFields): void;
}

/**
 * Checks a mapping against the source's columns (one line naming the key at fault) and compiles it.
 * `open`: the records name their own fields (JSON, NDJSON, XML); the columns checked are then those
 * the first records brought (`columns` and the sample's): a column none of them has is refused as a CSV header's would be
 * (a typo), unless `optional`; the others are read in each record that has them, `anyColumn`'s
 * first present one per record, and an `optional` one a record lacks leaves the field as it was.
 */
export function compileMapping(
  spec: MappingSpec,
  columns: readonly string[],
  open?: { sample: readonly SourceRecord[] },
): CompiledMapping {
  const present = new Set(columns);
  for (const record of open?.sample ?? []) for (const column in record.values) present.add(column);
  const specs: Record<string, FieldSpec> = {};
  const setters: ((record: SourceRecord, fields: RawFields) => void)[] = [];
  const fields: string[] = [];
  const removed: string[] = [];

  for (const [field, rule] of Object.entries(spec.fields)) {
    if (rule === null) {
      removed.push(field);
      setters.push((_, out) => delete out[field]);
      continue;
    }
    const resolved = resolveColumns(spec.origin, field, rule, present);
    // Null: optional, and not among the columns. Open, a later record may still bring it.
    if (resolved === null && !open) continue;
    const transforms = rule.transform ?? [];
    const fieldSpec = specFromTransforms({ kind: kindOf(field) }, transforms);
    if (rule.separator !== undefined) fieldSpec.separator = rule.separator;
    specs[field] = fieldSpec;
    fields.push(field);
    // Open: `anyColumn` is chosen in each record (the first records may lack the preferred one).
    const setter = fieldSetter(field, open || resolved === null ? rule : resolved, fieldSpec, transforms);
    setters.push(open && rule.optional ? keptWhereAbsent(rule, setter) : setter);
  }

  return {
    fields,
    removed,
    specs,
    apply(record, out) {
      for (const set of setters) set(record, out);
    },
  };
}

/**
 * The rule with its columns checked against the source: `anyColumn` resolved to the one present.
 * Null when an `optional` column is absent (the field is then simply not mapped).
 */
function resolveColumns(
  origin: string,
  field: string,
  rule: FieldRule,
  present: Set<string>,
): FieldRule | null {
  if (rule.anyColumn !== undefined) {
    const found = rule.anyColumn.find((column) => present.has(column));
    if (found !== undefined) return { ...rule, anyColumn: undefined, column: found };
    if (rule.optional) return null;
    const names = rule.anyColumn.map((column) => `"${column}"`).join(' or ');
    throw new CatalogConfigError(`${origin}: fields.${field}.anyColumn: the source has no column ${names}`);
  }
  const wanted = rule.column !== undefined ? [rule.column] : (rule.columns ?? []);
  const missing = wanted.findIndex((column) => !present.has(column));
  if (missing === -1) return rule;
  if (rule.optional) return null;
  const key = rule.column !== undefined ? `fields.${field}.column` : `fields.${field}.columns[${missing}]`;
  throw new CatalogConfigError(`${origin}: ${key}: the source has no column "${wanted[missing]}"`);
}

/** An optional rule of open columns: a record without any of its columns leaves the field alone. */
function keptWhereAbsent(
  rule: FieldRule,
  setter: (record: SourceRecord, fields: RawFields) => void,
): (record: SourceRecord, fields: RawFields) => void {
  const names = rule.column !== undefined ? [rule.column] : (rule.anyColumn ?? rule.columns ?? []);
  return (record, out) => {
    if (names.some((name) => record.values[name] !== undefined)) setter(record, out);
  };
}

function fieldSetter(
  field: string,
  rule: FieldRule,
  spec: FieldSpec,
  transforms: NonNullable<FieldRule['transform']>,
): (record: SourceRecord, fields: RawFields) => void {
  const transform = (text: string) => applyTextTransforms(trimCell(text), transforms);
  // A list field takes a list the source gave (a JSON array, repeated XML elements) item by item,
  // each transformed; a text field, the text (`values`: the items joined with `|`).
  const cell = (record: SourceRecord, column: string): string | string[] => {
    const list = spec.kind === 'list' ? sourceList(record, column) : undefined;
    if (!list) return transform(record.values[column] ?? '');
    return list.map(transform).filter((text) => text !== '');
  };
  if (rule.constant !== undefined) {
    const text = transform(String(rule.constant));
    return (_, out) => setOrRemove(out, field, text);
  }
  if (rule.column !== undefined) {
    const column = rule.column;
    return (record, out) => setOrRemove(out, field, cell(record, column));
  }
  if (rule.anyColumn !== undefined) {
    // Open columns only (compileMapping): the first of them this record has.
    const names = rule.anyColumn;
    return (record, out) => {
      const column = names.find((name) => record.values[name] !== undefined);
      setOrRemove(out, field, column === undefined ? '' : cell(record, column));
    };
  }
  const columns = rule.columns ?? [];
  const join = rule.join ?? ' ';
  return (record, out) => {
    const cells = columns.map((column) => cell(record, column));
    if (spec.kind === 'list')
      setOrRemove(
        out,
        field,
        cells.flatMap((text) => (Array.isArray(text) ? text : splitList(text, spec.separator))),
      );
    else setOrRemove(out, field, (cells as string[]).filter((text) => text !== '').join(join));
  };
}

function setOrRemove(out: RawFields, field: string, value: string | string[]): void {
  if (Array.isArray(value) ? value.length === 0 : value === '') delete out[field];
  else out[field] = value;
}
