import { createHash } from 'node:crypto';
import { decimalEquals } from '../catalog/decimal.js';

/**
 * A field value as kept in Redis for diffing: numbers and booleans as they are, short strings as
 * they are, and anything long (descriptions, image lists) as a digest, so that an index of a
 * million products stays small while still telling "changed" from "unchanged" exactly.
 */
export type CompactValue = string | number | boolean;

const LONGEST_KEPT = 64;
const DIGEST_MARK = '#sha1:';

export function compactValue(value: unknown): CompactValue | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text.length <= LONGEST_KEPT && !text.startsWith(DIGEST_MARK)) return text;
  return DIGEST_MARK + createHash('sha1').update(text).digest('base64url');
}

/** A value kept as a digest (longer than LONGEST_KEPT): it tells "changed", but cannot be sent back. */
export function isDigest(value: CompactValue): boolean {
  return typeof value === 'string' && value.startsWith(DIGEST_MARK);
}

/** Equal as the API would see them: decimals compare as decimals (`"12.50"` equals `12.5`). */
export function compactEquals(a: CompactValue, b: CompactValue): boolean {
  if (a === b) return true;
  if (typeof a === 'number' || typeof b === 'number') return decimalEquals(a, b);
  return false;
}

/**
 * The compact form of every field of a product (of `only`, when given), leaving out what cannot be
 * compared and the fields named in `leaveOut`.
 */
export function compactFields(
  fields: Record<string, unknown>,
  only?: ReadonlySet<string>,
  leaveOut?: ReadonlySet<string>,
): Record<string, CompactValue> {
  const out: Record<string, CompactValue> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (!isKept(name, only, leaveOut)) continue;
    const compact = compactValue(value);
    if (compact !== undefined) out[name] = compact;
  }
  return out;
}

/** Whether a field is kept: one of `only` (when given) and not one of `leaveOut`. */
export function isKept(
  name: string,
  only?: ReadonlySet<string> | null,
  leaveOut?: ReadonlySet<string>,
): boolean {
  return (!only || only.has(name)) && !leaveOut?.has(name);
}
