import { type CompactValue, compactFields } from '../catalog/compact-value.js';
import { diffProduct, type IndexedProduct } from '../catalog/diff.js';
import type { ProductFields, ProductUpsert, RowOutcome } from '../interfaces.js';
import type { Logger } from '../logger.js';
import { backoffDelay, type RetryPolicy, type SellerApiClient } from '../seller-api/index.js';
import type { CreatedProductFinder } from './created-product-finder.js';
import { errorAction, reasonOf } from './error-policy.js';
import type { IdMap, KnownProduct } from './id-map.js';
import type { RemoteIndex, RowLookup } from './remote-index.js';

/** Everything one row's sync needs; one per run per process. */
export interface RowSyncContext {
  runId: string;
  client: SellerApiClient;
  index: RemoteIndex;
  idMap: IdMap;
  finder: CreatedProductFinder;
  dryRun: boolean;
  /** Attempts for a write that fails with a retryable error (5xx, network, timeout). */
  retry: RetryPolicy;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  logger: Logger;
}

/**
 * Brings one row's product in line with the source: nothing, a PUT of the changed fields, or a POST.
 * Resolves to the row's outcome; rejects only with a pause (429, 401, budget), which leaves the row queued.
 */
export async function syncRow(
  ctx: RowSyncContext,
  upsert: ProductUpsert,
  lookup: RowLookup,
): Promise<RowOutcome> {
  const diff = diffProduct(upsert, lookup.remote, lookup.known?.sent);
  const outcome = (
    action: RowOutcome['action'],
    productId: string | null,
    status: RowOutcome['status'],
    error = '',
  ) => ({
    row: upsert.row,
    key: upsert.key,
    action,
    productId,
    status,
    error,
  });
  switch (diff.action) {
    case 'invalid':
      return outcome('invalid', null, 'failed', diff.reason);
    case 'unchanged':
      if (!lookup.createdByThisRun) return outcome('unchanged', diff.id, 'ok');
      // A worker died after this run's create was applied: finish recording it, and report it.
      await record(ctx, upsert, diff.id, lookup.known?.sent ?? {});
      return outcome('create', diff.id, 'ok');
    case 'update': {
      if (ctx.dryRun) return outcome('update', diff.id, 'planned');
      const remote = lookup.remote as IndexedProduct;
      const result = await update(ctx, upsert, remote, diff.fields, lookup.known);
      if (result === 'gone') return create(ctx, upsert, outcome);
      return result === 'ok'
        ? outcome('update', diff.id, 'ok')
        : outcome('update', diff.id, 'failed', result.failed);
    }
    case 'create':
      if (ctx.dryRun) return outcome('create', null, 'planned');
      return create(ctx, upsert, outcome);
  }
}

type Outcome = (
  action: RowOutcome['action'],
  productId: string | null,
  status: RowOutcome['status'],
  error?: string,
) => RowOutcome;

async function update(
  ctx: RowSyncContext,
  upsert: ProductUpsert,
  remote: IndexedProduct,
  changed: ProductFields,
  known: KnownProduct | undefined,
): Promise<'ok' | 'gone' | { failed: string }> {
  for (let attempt = 1; ; attempt++) {
    try {
      await ctx.client.updateProduct(remote.id, changed);
      // Remember what we sent for fields the API does not show, so the next run sees them as unchanged.
      const hidden = Object.fromEntries(Object.entries(changed).filter(([name]) => !(name in remote.values)));
      if (known || Object.keys(hidden).length > 0) {
        await ctx.idMap.remember(upsert.key, {
          id: remote.id,
          sent: { ...known?.sent, ...compactFields(hidden) },
        });
      }
      return 'ok';
    } catch (error) {
      const action = errorAction(error, 'update');
      if (action === 'pause-seller') throw error;
      if (action === 'recreate') {
        ctx.logger.info({ row: upsert.row, id: remote.id }, 'product gone (404 on PUT): creating it again');
        await ctx.idMap.forget(upsert.key, remote.id);
        await ctx.index.forget(upsert.key, remote.id);
        return 'gone';
      }
      if (action === 'retry' && attempt <= ctx.retry.retries) {
        await ctx.sleep(backoffDelay(attempt, ctx.retry, ctx.random));
        continue;
      }
      return { failed: reasonOf(error) };
    }
  }
}

async function create(ctx: RowSyncContext, upsert: ProductUpsert, outcome: Outcome): Promise<RowOutcome> {
  // A create marked pending by an earlier attempt (a crash, a lost answer) may have been applied.
  if (await ctx.idMap.isCreatePending(upsert.key)) {
    const found = await ctx.finder.find(upsert.key, upsert.fields, ctx.finder.mark());
    if (found) return adopt(ctx, upsert, found, outcome);
  }
  await ctx.idMap.markCreatePending(upsert.key, ctx.runId);
  for (let attempt = 1; ; attempt++) {
    let markedAt = 0;
    try {
      const created = await ctx.client.createProduct(upsert.fields);
      markedAt = ctx.finder.mark();
      const id = created.id ?? (await ctx.finder.find(upsert.key, upsert.fields, markedAt))?.id ?? null;
      if (id === null) {
        return outcome(
          'create',
          null,
          'failed',
          'created, but the API answered without an id and it was not found',
        );
      }
      const echoed = created.product?.fields ?? {};
      const hidden = Object.fromEntries(Object.entries(upsert.fields).filter(([name]) => !(name in echoed)));
      await record(ctx, upsert, id, compactFields(hidden));
      return outcome('create', id, 'ok');
    } catch (error) {
      markedAt = ctx.finder.mark();
      const action = errorAction(error, 'create');
      if (action === 'pause-seller') {
        // A 429, a 401 or a request never sent: certainly not applied, so no look-up is owed.
        await ctx.idMap.clearCreatePending(upsert.key);
        throw error;
      }
      if (action === 'look-first') {
        const found = await ctx.finder.find(upsert.key, upsert.fields, markedAt);
        if (found) return adopt(ctx, upsert, found, outcome);
      }
      if ((action === 'retry' || action === 'look-first') && attempt <= ctx.retry.retries) {
        await ctx.sleep(backoffDelay(attempt, ctx.retry, ctx.random));
        continue;
      }
      await ctx.idMap.clearCreatePending(upsert.key);
      return outcome('create', null, 'failed', reasonOf(error));
    }
  }
}

/** The create had been applied after all: keep that product, and bring it in line if it differs. */
async function adopt(ctx: RowSyncContext, upsert: ProductUpsert, found: IndexedProduct, outcome: Outcome) {
  ctx.logger.info({ row: upsert.row, id: found.id }, 'found the product of a create whose answer was lost');
  const hidden = Object.fromEntries(
    Object.entries(upsert.fields).filter(([name]) => !(name in found.values)),
  );
  await record(ctx, upsert, found.id, compactFields(hidden));
  const diff = diffProduct(upsert, found, compactFields(hidden));
  if (diff.action === 'update') {
    const result = await update(ctx, upsert, found, diff.fields, undefined);
    if (typeof result === 'object') return outcome('create', found.id, 'failed', result.failed);
  }
  return outcome('create', found.id, 'ok');
}

async function record(
  ctx: RowSyncContext,
  upsert: ProductUpsert,
  id: string,
  sent: Record<string, CompactValue>,
) {
  await ctx.idMap.remember(upsert.key, { id, sent });
  await ctx.index.put(upsert.key, { id, values: compactFields(upsert.fields) });
  await ctx.idMap.clearCreatePending(upsert.key);
}
