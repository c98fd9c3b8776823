import type { ProductFields, ProductUpsert } from '../interfaces.js';
import { type CompactValue, compactEquals, compactValue } from './compact-value.js';

/** A remote product as the run's index keeps it: its id and the compact values of the run's fields. */
export interface IndexedProduct {
  id: string;
  values: Record<string, CompactValue>;
}

export type DiffResult =
  | { action: 'create'; fields: ProductFields }
  | { action: 'update'; id: string; fields: ProductFields }
  | { action: 'unchanged'; id: string }
  | { action: 'invalid'; reason: string };

/**
 * What one source row needs: a create, an update with only the changed fields, or nothing.
 *
 * `sent` holds what this tool last sent for the fields the API does not echo back (a field absent
 * from the remote product): without it, an API that hides e.g. `sku` would make every re-run
 * rewrite every product, and an unchanged re-run must send zero writes (issue 4).
 */
export function diffProduct(
  upsert: ProductUpsert,
  remote: IndexedProduct | undefined,
  sent: Record<string, CompactValue> = {},
): DiffResult {
  if (!remote) {
    // Contract, "What a run does with each row": a row that cannot be sent is reported, not dropped.
    if (upsert.fields.name === undefined)
      return { action: 'invalid', reason: 'missing name for a new product' };
    return { action: 'create', fields: upsert.fields };
  }
  const changed: ProductFields = {};
  let changes = 0;
  for (const [name, value] of Object.entries(upsert.fields)) {
    const mine = compactValue(value);
    if (mine === undefined) continue;
    const theirs = remote.values[name] ?? sent[name];
    if (theirs !== undefined && compactEquals(mine, theirs)) continue;
    changed[name] = value;
    changes++;
  }
  return changes === 0
    ? { action: 'unchanged', id: remote.id }
    : { action: 'update', id: remote.id, fields: changed };
}
