import { parseDecimal } from '../catalog/decimal.js';
import { kindOf } from '../catalog/fields.js';
import { convertField } from '../catalog/validate.js';
import type { FieldValue, ProductFields } from '../interfaces.js';
import { type CompactValue, compactEquals, compactValue, isDigest } from '../sync/compact-value.js';
import { UsageError } from '../usage-error.js';
import { refusedMissingValue } from './missing-value-rules.js';

/**
 * `--missing field=value[,field=value]` (job files: `missing:` as a map): the fields a product this
 * tool manages gets when the source no longer holds it. Values are typed as the generic preset reads
 * a cell of that column (src/catalog: a price as a number, an unknown column as text), so the
 * deactivating PUT and the feed's own rows write one form, and "already so" compares like the diff.
 */
export type MissingValues = ProductFields;

const FIELD = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;

/** One field's text as the generic preset would read its cell; a bad value is the user's mistake. */
function typed(field: string, text: string, option: string): FieldValue {
  if (!FIELD.test(field))
    throw new UsageError(
      `${option} takes field=value pairs such as quantity=0, not a field named "${field}"`,
    );
  const converted = convertField(field, text, {
    matchBy: '',
    specOf: (name) => ({ kind: kindOf(name) }),
    readDecimal: (value, forced) => parseDecimal(value, forced ?? 'auto'),
  });
  if (converted.ok !== true)
    throw new UsageError(`${option}: ${'reason' in converted ? converted.reason : converted.note}`);
  const refused = refusedMissingValue(field, text, converted.value, option);
  if (refused !== null) throw new UsageError(refused);
  return converted.value;
}

/** `quantity=0,status=inactive` → { quantity: 0, status: "inactive" } (typed by field). */
export function parseMissingValues(text: string, option = '--missing'): MissingValues {
  const values: MissingValues = {};
  const pairs = String(text).split(',');
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    const field = at < 0 ? '' : pair.slice(0, at).trim();
    if (at < 0 || field === '')
      throw new UsageError(`${option} takes field=value pairs such as quantity=0, not "${pair.trim()}"`);
    if (field in values) throw new UsageError(`${option} names ${field} twice`);
    values[field] = typed(field, pair.slice(at + 1).trim(), option);
  }
  return values;
}

/** A job file's `missing: {quantity: 0}`: each value read as its text would be on the command line. */
export function missingValuesOfMap(map: Record<string, unknown>, option = 'missing'): MissingValues {
  const entries = Object.entries(map);
  if (entries.length === 0) throw new UsageError(`${option} needs at least one field, e.g. {quantity: 0}`);
  const values: MissingValues = {};
  for (const [field, value] of entries) {
    if (value === null || typeof value === 'object')
      throw new UsageError(`${option}.${field} must be a number, text or true/false`);
    values[field] = typed(field, String(value), option);
  }
  return values;
}

/** True when the product, as listed, already shows every `--missing` value (compared as the diff compares). */
export function alreadySo(listed: Readonly<Record<string, CompactValue>>, missing: MissingValues): boolean {
  return Object.entries(missing).every(([field, value]) => {
    const wanted = compactValue(value);
    const shown = listed[field];
    return wanted !== undefined && shown !== undefined && compactEquals(shown, wanted);
  });
}

/** What the product shows of the `--missing` fields before they are written (null: it shows none). */
export function formerValues(
  listed: Readonly<Record<string, CompactValue>>,
  missing: MissingValues,
): Record<string, CompactValue | null> {
  const former: Record<string, CompactValue | null> = {};
  for (const field of Object.keys(missing)) former[field] = listed[field] ?? null;
  return former;
}

/** The `--missing` values as a record keeps them (deactivated-store.ts). */
export function setValues(missing: MissingValues): Record<string, CompactValue> {
  const set: Record<string, CompactValue> = {};
  for (const [field, value] of Object.entries(missing)) {
    const compact = compactValue(value);
    if (compact !== undefined) set[field] = compact;
  }
  return set;
}

/** A former value that cannot be sent back: the product showed none, or it was kept as a digest. */
export function cannotGiveBack(value: CompactValue | null | undefined): boolean {
  return value === null || value === undefined || isDigest(value);
}

/**
 * The fields a returning product gets back: each former value the source does not give itself. A
 * value kept only as a digest (a long text) cannot be sent back; nor can a field it never showed:
 * those are `unrestored` (the source gives no value for them either), and the row's note says so.
 */
export function fieldsToRestore(
  sourceFields: Readonly<ProductFields>,
  former: Readonly<Record<string, CompactValue | null>>,
): { restore: ProductFields; unrestored: string[] } {
  const restore: ProductFields = {};
  const unrestored: string[] = [];
  for (const [field, value] of Object.entries(former)) {
    if (field in sourceFields) continue;
    if (value === null || isDigest(value)) unrestored.push(field);
    else restore[field] = value;
  }
  return { restore, unrestored };
}

/**
 * The deactivate line's note for the fields it cannot give back when the product returns, or
 * nothing: `quantity had no value before: not given back by itself if the product returns`.
 */
export function notGivenBackNote(record: {
  former: Readonly<Record<string, CompactValue | null>>;
}): string[] {
  const lost = Object.entries(record.former).filter(([, value]) => cannotGiveBack(value));
  if (lost.length === 0) return [];
  const none = lost.filter(([, value]) => value === null).map(([field]) => field);
  const long = lost.filter(([, value]) => value !== null).map(([field]) => field);
  const why = [
    none.length > 0 ? `${none.join(', ')} had no value before` : '',
    long.length > 0 ? `${long.join(', ')} had a value too long to keep` : '',
  ]
    .filter(Boolean)
    .join('; ');
  return [`${why}: cannot be given back automatically if the product returns (give it in the source then)`];
}
