import type { ProductUpsert } from '../interfaces.js';
import { type CompactValue, compactFields } from './compact-value.js';
import type { IndexedProduct } from './diff.js';
import type { KnownProduct } from './id-map.js';
import type { ReplacedValues } from './replaced-values.js';
import type { RowSyncContext } from './row-sync-context.js';

/**
 * Records a product this run created: first in the run's index (so a chunk tried again reports it
 * `create`), then in the seller's id map, which releases the create's claim in the same step. With
 * `rowWrites`, both go in the MULTI that settles the row: all of it or none (a worker killed before
 * it leaves the claim, and the next claim of the key looks the product up first).
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
    ctx.rowWrites.push((multi) => {
      ctx.index.queuePut(multi, upsert.key, entry);
      ctx.idMap.queueRemember(multi, upsert.key, product, token);
    });
    return;
  }
  await ctx.index.put(upsert.key, entry);
  await ctx.idMap.remember(upsert.key, product, token);
}

/** What the id map learned of an unchanged product: with the row's settle when it is held for it. */
export async function remember(ctx: RowSyncContext, key: string, product: KnownProduct): Promise<void> {
  if (ctx.rowWrites) ctx.rowWrites.push((multi) => ctx.idMap.queueRemember(multi, key, product));
  else await ctx.idMap.remember(key, product);
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
    ctx.rowWrites.push((multi) => {
      ctx.idMap.queueRemember(multi, key, known);
      ctx.index.queueRefresh(multi, entry, replaced);
    });
    return;
  }
  await Promise.all([ctx.idMap.remember(key, known), ctx.index.refresh(entry, replaced)]);
}
