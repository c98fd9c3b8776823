import type { ProductUpsert } from '../interfaces.js';
import { rowWrite } from '../runs/settle-batch.js';
import { type CompactValue, compactFields } from './compact-value.js';
import type { IndexedProduct } from './diff.js';
import type { KnownProduct, Remembered } from './id-map.js';
import type { ReplacedValues } from './replaced-values.js';
import type { RowSyncContext } from './row-sync-context.js';

/**
 * Records a product this run created: first in the run's index (so a chunk tried again reports it
 * `create`), then in the seller's id map, which releases the create's claim in the same step. With
 * `rowWrites`, both go in the script that settles the row: all of it or none (a worker killed before
 * it leaves the claim, and the next claim of the key looks the product up first). The records of the
 * rows of one settle are written together: a command per hash, not per row (issue 31).
 */
export async function recordCreated(
  ctx: RowSyncContext,
  upsert: ProductUpsert,
  product: KnownProduct,
  shown: Record<string, CompactValue> | null,
  token: string,
): Promise<void> {
  const entry = { id: product.id, values: { ...compactFields(upsert.fields), ...shown } };
  if (ctx.rowWrites) {
    ctx.rowWrites.push(
      rowWrite(ctx.index.recorded, { created: true, key: upsert.key, product: entry }),
      rowWrite(ctx.idMap.remembered, remembered(ctx, upsert.key, product, token)),
    );
    return;
  }
  await ctx.index.put(upsert.key, entry);
  await ctx.idMap.remember(upsert.key, product, token, alsoOf(ctx));
}

/** What the id map learned of an unchanged product: with the row's settle when it is held for it. */
export async function remember(ctx: RowSyncContext, key: string, product: KnownProduct): Promise<void> {
  if (ctx.rowWrites) ctx.rowWrites.push(rowWrite(ctx.idMap.remembered, remembered(ctx, key, product, '')));
  else await ctx.idMap.remember(key, product, '', alsoOf(ctx));
}

/** What a PUT changed: the id map's memory, and the run's index entry (with what it replaced). */
export async function recordUpdated(
  ctx: RowSyncContext,
  key: string,
  known: KnownProduct,
  entry: IndexedProduct,
  replaced: ReplacedValues | undefined,
): Promise<void> {
  if (ctx.rowWrites) {
    const record = replaced
      ? { created: false as const, product: entry, replaced }
      : { created: false as const, product: entry };
    ctx.rowWrites.push(
      rowWrite(ctx.idMap.remembered, remembered(ctx, key, known, '')),
      rowWrite(ctx.index.recorded, record),
    );
    return;
  }
  await Promise.all([ctx.idMap.remember(key, known, '', alsoOf(ctx)), ctx.index.refresh(entry, replaced)]);
}

/** A row's record in the id map (id-map.ts), with what it removes: see `alsoOf`. */
function remembered(ctx: RowSyncContext, matchKey: string, product: KnownProduct, claim: string): Remembered {
  return { matchKey, product, claim, ...alsoOf(ctx) };
}

/**
 * What a row's record removes besides: a row with a former key's product, that key's entry; a row
 * whose product answered a PUT with 404, that product's reverse entry (its key now names another).
 */
function alsoOf(ctx: RowSyncContext): Pick<Remembered, 'former' | 'replaces'> {
  return {
    ...(ctx.former ? { former: ctx.former } : {}),
    ...(ctx.gone !== undefined ? { replaces: ctx.gone } : {}),
  };
}
