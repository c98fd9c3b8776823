import { STILL_OFF_MARK } from '../runs/run-scripts.js';
import { type CompactValue, compactEquals, isDigest } from '../sync/compact-value.js';
import type { DeactivatedProduct } from './deactivated-store.js';

/**
 * The notes of a returning product's `unrestored` fields that still show what `--missing` set (or
 * whose value is not known here: an `--incremental` run that read no product), one per field:
 * `quantity stays 0 (set by --missing on 2026-11-27; it had no value before): give it a value in the source`.
 */
export function stillOffNotes(
  product: DeactivatedProduct,
  unrestored: readonly string[],
  shown: Readonly<Record<string, CompactValue>>,
): { fields: string[]; notes: string[] } {
  const fields = unrestored.filter((field) => {
    const now = shown[field];
    const set = product.set?.[field];
    return now === undefined || set === undefined || compactEquals(now, set);
  });
  const notes = fields.map((field) => {
    const set = product.set?.[field];
    const value = set === undefined || isDigest(set) ? 'as --missing set it' : String(set);
    const day = product.setOn?.[field] ?? product.at;
    const on = day ? ` on ${day}` : '';
    const before = product.former[field];
    const why =
      before === null || before === undefined
        ? 'it had no value before'
        : 'its value before was too long to keep';
    return `${field} stays ${value} (${STILL_OFF_MARK}${on}; ${why}): give it a value in the source`;
  });
  return { fields, notes };
}
