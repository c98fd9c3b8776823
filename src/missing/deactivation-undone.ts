import type { Redis } from 'ioredis';
import type { ProductFields } from '../interfaces.js';
import type { RedisKeys } from '../runs/keys.js';
import { compactEquals } from '../sync/compact-value.js';
import type { ReplacedValues } from '../sync/replaced-values.js';
import { DeactivatedStore } from './deactivated-store.js';

/** A product a revert put back (revert/plan.ts): the fields it sent, and those back already. */
export interface PutBack {
  id: string;
  key: string;
  put: ProductFields;
  alreadyBack: readonly string[];
}

/**
 * `revert`'s end of a deactivation, for the products of the seller whose PUT went through
 * (revert/revert-run.ts calls it; the store is this layer's).
 */
export function deactivationsUndone(redis: Redis, keys: RedisKeys, sellerRef: string) {
  const store = new DeactivatedStore(redis, keys, sellerRef);
  return (product: PutBack, replaced: ReplacedValues) => endUndoneDeactivation(store, product, replaced);
}

/**
 * A product that `--missing` deactivated, whose deactivating values the revert put back, is off no
 * more: its record (missing/deactivated-store.ts) goes. Kept, a later run of the product would say
 * `reactivated` and send the former values again, over what the seller set since the revert (the
 * revert gave them back already). Only the `--missing` fields that are back leave the record: one
 * left alone (changed since the run) keeps its record of that field, as a returning row narrows it.
 * The record of a deactivation this run did not write is kept.
 */
export async function endUndoneDeactivation(
  store: Pick<DeactivatedStore, 'getMany' | 'clear' | 'narrow'>,
  product: PutBack,
  replaced: ReplacedValues,
): Promise<void> {
  const record = (await store.getMany([product.id])).get(product.id);
  if (!record) return;
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
  if (left.length === 0) await store.clear(product.id);
  else await store.narrow(product.id, left);
}
