import type { Redis } from 'ioredis';
import type { ProductUpsert } from '../interfaces.js';
import type { RedisKeys } from '../runs/keys.js';
import { decodeOutcome } from '../runs/run-store.js';
import type { RowLookup } from '../sync/remote-index.js';
import { REACTIVATED_NOTE } from '../sync/row-notes.js';
import { type DeactivatedProduct, DeactivatedStore } from './deactivated-store.js';
import { fieldsToRestore } from './missing-values.js';
import { stillOffNotes } from './still-off.js';

/**
 * The rows of a chunk whose products `--missing` deactivated, by row number. `unrestored`: the
 * `--missing` fields it had no value of to give back and the source does not give either; `stillOff`:
 * those of them the product still shows the `--missing` value of (noted on the row, record kept).
 */
export type Returning = Map<
  number,
  { product: DeactivatedProduct; unrestored: string[]; stillOff: string[] }
>;

/**
 * Rows whose product `--missing` deactivated come back: each gets the former values of the fields
 * that `--missing` set and the source does not give itself, and the note `reactivated`. The diff then
 * writes what differs, like any other update. The product is the one the row's look-up found (by its
 * key in the run's match field, its id column or its former key): a product deactivated by a run
 * matching by another field is found too. One read for the chunk, none when no row has a product.
 */
export async function withReactivations(
  redis: Redis,
  keys: RedisKeys,
  sellerRef: string,
  rows: ProductUpsert[],
  lookups: ReadonlyMap<number, RowLookup>,
): Promise<{ rows: ProductUpsert[]; returning: Returning }> {
  const returning: Returning = new Map();
  const ids = new Map<number, string>();
  for (const row of rows) {
    const id = productOf(lookups.get(row.row));
    if (id !== undefined) ids.set(row.row, id);
  }
  if (ids.size === 0) return { rows, returning };
  const found = await new DeactivatedStore(redis, keys, sellerRef).getMany([...new Set(ids.values())]);
  if (found.size === 0) return { rows, returning };
  const augmented = rows.map((row) => {
    const id = ids.get(row.row);
    const product = id === undefined ? undefined : found.get(id);
    // Not sold in the source (`--fields` without status): not back on sale, so nothing is restored
    // (a former `status` would make it live); its record waits for the night it is sold again.
    if (!product || row.notSold !== undefined) return row;
    const { restore, unrestored } = fieldsToRestore(row.fields, product.former);
    returning.set(row.row, { product, unrestored, stillOff: [] });
    // An `apply` job carries the row as planned: restored and noted already.
    const notes = row.notes?.includes(REACTIVATED_NOTE)
      ? row.notes
      : [...(row.notes ?? []), REACTIVATED_NOTE];
    return { ...row, fields: { ...restore, ...row.fields }, notes };
  });
  return { rows: augmented, returning };
}

/**
 * The product a row writes, as its look-up found it: the one listed, else the one the id map
 * records (a row that will create it anew gets the former values too). None for a refused row.
 */
function productOf(lookup: RowLookup | undefined): string | undefined {
  if (!lookup || lookup.refused !== undefined) return undefined;
  return lookup.remote?.id ?? lookup.known?.id;
}

/**
 * A returning product whose `--missing` value stays (it had no value before to give back, and the
 * source gives none): its row says so, on every run until the source gives one, rather than show it
 * `unchanged` and silent while it is off sale. Judged on the product as looked up: one that shows
 * another value since (set by hand) is not noted, nor a row that will create a product anew.
 */
export function noteStillOff(
  rows: ProductUpsert[],
  returning: Returning,
  lookups: ReadonlyMap<number, RowLookup>,
): ProductUpsert[] {
  if (returning.size === 0) return rows;
  return rows.map((row) => {
    const entry = returning.get(row.row);
    if (!entry || entry.unrestored.length === 0) return row;
    const remote = lookups.get(row.row)?.remote;
    if (!remote || remote.id !== entry.product.id) return row;
    const { fields, notes } = stillOffNotes(entry.product, entry.unrestored, remote.values);
    entry.stillOff = fields;
    const fresh = notes.filter((note) => !row.notes?.includes(note));
    return fresh.length === 0 ? row : { ...row, notes: [...(row.notes ?? []), ...fresh] };
  });
}

/**
 * Once a returning row's write settled ok (or found nothing to write), its record is done with; a
 * product whose `--missing` value stays keeps the record of those fields alone, to be noted again.
 */
export async function clearReactivated(
  redis: Redis,
  keys: RedisKeys,
  runId: string,
  sellerRef: string,
  returning: Returning,
): Promise<void> {
  if (returning.size === 0) return;
  const rows = [...returning.keys()];
  const outcomes = await redis.hmget(keys.outcomes(runId), ...rows.map(String));
  const store = new DeactivatedStore(redis, keys, sellerRef);
  for (const [i, row] of rows.entries()) {
    const json = outcomes[i];
    const entry = returning.get(row);
    if (!json || !entry) continue;
    const outcome = decodeOutcome(row, json);
    if (outcome.status !== 'ok' || !['update', 'unchanged'].includes(outcome.action)) continue;
    if (outcome.productId !== entry.product.id) continue;
    if (entry.stillOff.length > 0) await store.narrow(entry.product.id, entry.stillOff);
    else await store.clear(entry.product.id);
  }
}
