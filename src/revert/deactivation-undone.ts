import type { DeactivatedStore } from '../missing/deactivated-store.js';
import { compactEquals } from '../sync/compact-value.js';
import type { ReplacedValues } from '../sync/replaced-values.js';
import type { ProductRevertPlan } from './plan.js';

/**
 * A product that `--missing` deactivated, whose deactivating values the revert put back, is off no
 * more: its record (missing/deactivated-store.ts) goes. Kept, a later run of the product would say
 * `reactivated` and send the former values again, over what the seller set since the revert (the
 * revert gave them back already). Only the `--missing` fields that are back leave the record: one
 * left alone (changed since the run) keeps its record of that field, as a returning row narrows it.
 * A record of another product under the key, or of a deactivation this run did not write, is kept.
 */
export async function endUndoneDeactivation(
  store: DeactivatedStore,
  product: Pick<ProductRevertPlan, 'id' | 'key' | 'put' | 'alreadyBack'>,
  replaced: ReplacedValues,
): Promise<void> {
  const record = (await store.getMany([product.key])).get(product.key);
  if (!record || record.id !== product.id) return;
  const back = new Set([...Object.keys(product.put), ...product.alreadyBack]);
  const undone = (field: string): boolean => {
    const sent = replaced.fields[field]?.sent;
    if (!back.has(field) || sent === undefined) return false;
    // The run's write of the field was the deactivation's value (a record from before `set` was kept: any).
    const set = record.set?.[field];
    return set === undefined || compactEquals(sent, set);
  };
  const fields = Object.keys(record.former);
  const left = fields.filter((field) => !undone(field));
  if (left.length === fields.length) return;
  if (left.length === 0) await store.clear(product.key, product.id);
  else await store.narrow(product.key, product.id, left);
}
