import { type CompactValue, compactEquals } from '../sync/compact-value.js';
import type { DeactivatedProduct } from './deactivated-product.js';

/**
 * A product deactivated already, deactivated again (a later night's `--missing`, the product still
 * gone): the record it keeps. Its first record holds the values to give back, and stays; what the
 * new deactivation writes besides is added to it, so that the product's return gives back (or says
 * it cannot give back) every field `--missing` ever set on it, not only those of the first night:
 * - a field the record lacks (`--missing` names more fields now): added with the value it shows
 *   before this write, or null, which the deactivation's line and the return then say;
 * - a field the record knew no value of, that the product shows now (set by hand since: not the value
 *   `--missing` set): that value;
 * - the values this write sets, over those set before (the return judges "still off" by them), with
 *   the day of each where it is not the record's own `at`.
 * A field recorded before and not named now keeps its record. Undefined when nothing changes.
 */
export function mergedRecord(
  kept: DeactivatedProduct,
  fresh: DeactivatedProduct,
): DeactivatedProduct | undefined {
  const former = { ...kept.former };
  let changed = false;
  for (const [field, value] of Object.entries(fresh.former)) {
    if (Object.hasOwn(kept.former, field)) {
      if (value === null || kept.former[field] !== null) continue;
      // What an earlier night's `--missing` set is not a value of the product's own to give back.
      const setBefore = kept.set?.[field];
      if (setBefore !== undefined && compactEquals(setBefore, value)) continue;
    }
    former[field] = value;
    changed = true;
  }
  const set: Record<string, CompactValue> = { ...kept.set };
  const setOn: Record<string, string> = { ...kept.setOn };
  for (const [field, value] of Object.entries(fresh.set ?? {})) {
    const before = kept.set?.[field];
    if (before !== undefined && compactEquals(before, value)) continue;
    set[field] = value;
    // A field of the first record whose set value was not kept (a record from before it was) was set then.
    const setNow = before !== undefined || !Object.hasOwn(kept.former, field);
    if (setNow && fresh.at !== undefined && fresh.at !== kept.at) setOn[field] = fresh.at;
    changed = true;
  }
  if (!changed) return undefined;
  const merged: DeactivatedProduct = { ...kept, former };
  if (Object.keys(set).length > 0) merged.set = set;
  if (Object.keys(setOn).length > 0) merged.setOn = setOn;
  return merged;
}
