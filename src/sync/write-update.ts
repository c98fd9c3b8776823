import type { ProductFields, ProductUpsert } from '../interfaces.js';
import { backoffDelay } from '../seller-api/index.js';
import { type CompactValue, compactFields } from './compact-value.js';
import { type IndexedProduct, memoryAfterWrite, notApplied, notAppliedNote } from './diff.js';
import { errorAction, pauseOf, reasonOf, retriesFor } from './error-policy.js';
import type { KnownProduct } from './id-map.js';
import { replacedValues } from './replaced-values.js';
import { givenUp, type RowSyncContext } from './row-sync-context.js';
import { recordUpdated } from './row-writes.js';

/** One PUT of `changed` to `remote`, retried by the policy, remembered and kept for `revert`; also `--missing`'s. */
export async function writeUpdate(
  ctx: RowSyncContext,
  upsert: ProductUpsert,
  remote: IndexedProduct,
  changed: ProductFields,
  known: KnownProduct | undefined,
  /** An update of a product the run did not create: what it replaces is kept for `revert`. */
  keepReplaced = false,
): Promise<{ notes: string[] } | 'gone' | { failed: string }> {
  const tries: unknown[] = [];
  for (let attempt = 1; ; attempt++) {
    try {
      const answer = await ctx.client.updateProduct(remote.id, changed);
      const shown = answer ? compactFields(answer.fields) : null;
      // Answered 200, yet still showing the old value (under review, locked): said, not retried nightly.
      const unapplied = notApplied(changed, remote.values, shown);
      const memory = memoryAfterWrite(known, changed, shown, unapplied);
      const replaced = keepReplaced ? replacedValues(upsert.key, changed, remote, known, memory) : undefined;
      // A chunk tried again diffs against what the API showed after this write, not before it.
      const entry = { id: remote.id, values: { ...remote.values, ...compactFields(changed), ...shown } };
      await recordUpdated(ctx, upsert.key, { id: remote.id, ...memory }, entry, replaced);
      return { notes: unapplied.map((name) => notAppliedNote(name, shown?.[name] as CompactValue)) };
    } catch (error) {
      tries.push(error);
      const action = errorAction(error, 'update');
      if (action === 'pause-seller' || action === 'stop') throw error;
      if (action === 'recreate') {
        ctx.logger.info({ row: upsert.row, id: remote.id }, 'product gone (404 on PUT): creating it again');
        // The run's own index drops it; the id map keeps it until the create tells more (row-sync.ts):
        // a base URL with no API under it answers this PUT with a 404 too.
        await ctx.index.forget(upsert.key, remote.id);
        return 'gone';
      }
      if (action === 'retry' && attempt <= retriesFor(error, ctx.retry)) {
        await ctx.sleep(backoffDelay(attempt, ctx.retry, ctx.random));
        continue;
      }
      const final = givenUp(ctx, error, tries);
      if (pauseOf(final)) throw final;
      return { failed: reasonOf(error) };
    }
  }
}
