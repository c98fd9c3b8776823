import type { ProductFields, ProductUpsert, RowOutcome } from '../interfaces.js';
import type { PlannedWrite } from '../plan/plan-store.js';
import type { RunSpec } from '../runs/run-store.js';
import { type CompactValue, compactEquals, compactValue } from '../sync/compact-value.js';
import type { IndexedProduct } from '../sync/diff.js';
import { diffProduct } from '../sync/diff.js';
import type { KnownProduct } from '../sync/id-map.js';
import { onlyFilter } from '../sync/only-filter.js';
import type { RowLookup } from '../sync/remote-index.js';
import { diffOptionsOf, type RowSyncContext } from '../sync/row-sync-context.js';
import { buyerPriceRefusal, lastSentBuyerPriceRefusal, type ShownPrices } from './buyer-price.js';
import { lastSentPriceRefusal, priceChangeRefusal } from './limits.js';

type PlanContext = Pick<RowSyncContext, 'createOnly' | 'only' | 'keepRemote' | 'sent' | 'matchBy'>;

/**
 * The write a guarded run plans for a row, or null when it needs none (or this run created it
 * already). `--max-price-change` is checked here, on the price as listed.
 */
export function planWrite(
  context: PlanContext,
  spec: Pick<RunSpec, 'maxPriceChange'>,
  upsert: ProductUpsert,
  lookup: RowLookup,
): PlannedWrite | null {
  // A refused row writes nothing: it settles now as invalid (syncRow).
  if (lookup.createdByThisRun || lookup.refused !== undefined) return null;
  const diff = onlyFilter(
    diffProduct(upsert, lookup.remote, lookup.known, diffOptionsOf(context)),
    context.only,
  );
  if (diff.action === 'create') return { upsert, action: 'create', productId: null, fields: diff.fields };
  if (diff.action !== 'update') return null;
  return updateWrite(spec, upsert, lookup.remote ?? { id: diff.id, values: {} }, diff.fields, lookup.known);
}

/**
 * An update of `remote` with `fields`, as planned: held by the row guard when its price moves more
 * than `--max-price-change`, or the price the buyer pays does (buyer-price.ts: a sale that starts,
 * changes or ends), and with the values the product showed in those fields (`before`), so that
 * `approve` tells a product changed meanwhile. A product not read (an `--incremental` run from its
 * record) has no `before`, and its prices are weighed from the ones this tool last sent it
 * (`known`, the id map's record). A create that finds the product made meanwhile by another run is
 * planned so too, at its write (held-at-write.ts).
 */
export function updateWrite(
  spec: Pick<RunSpec, 'maxPriceChange'>,
  upsert: ProductUpsert,
  remote: IndexedProduct,
  fields: ProductFields,
  known?: KnownProduct,
): PlannedWrite {
  const write: PlannedWrite = { upsert, action: 'update', productId: remote.id, fields };
  if (!remote.unread) {
    const before: Record<string, CompactValue> = {};
    for (const name of Object.keys(fields)) {
      const value = remote.values[name];
      if (value !== undefined) before[name] = value;
    }
    write.before = before;
  }
  if (spec.maxPriceChange && fields.price !== undefined) {
    const refusal = remote.unread
      ? lastSentPriceRefusal(known?.sent.price, fields.price, spec.maxPriceChange)
      : priceChangeRefusal(remote.values.price, fields.price, spec.maxPriceChange);
    if (refusal) write.heldFor = refusal;
  }
  // The price the buyer pays moves with a sale price too (one that starts, changes or ends):
  // weighed where the price's own move did not hold the row already.
  if (spec.maxPriceChange && write.heldFor === undefined) {
    const refusal = remote.unread
      ? lastSentBuyerPriceRefusal(pricesOf({}, known), fields, spec.maxPriceChange)
      : buyerPriceRefusal(pricesOf(remote.values, known), fields, spec.maxPriceChange);
    if (refusal) write.heldFor = refusal;
  }
  return write;
}

/**
 * A product's prices before the write: as listed, else (a field the API does not show, or a product
 * not read) as this tool last sent them, as the diff reads a sale price to end (sync/sale-end.ts).
 */
function pricesOf(listed: IndexedProduct['values'], known: KnownProduct | undefined): ShownPrices {
  return {
    price: listed.price ?? known?.sent.price,
    salePrice: listed.sale_price ?? known?.sent.sale_price,
  };
}

/**
 * The write a held row would send now is the one that was held, to a product that did not change
 * since: the same fields with the same values, and (plans that kept them) the product showing
 * what it showed then in each of them. A price edited by hand since the hold re-plans the row,
 * though the source's price is still the one sent.
 */
export function samePlan(
  context: PlanContext,
  held: PlannedWrite,
  upsert: ProductUpsert,
  lookup: RowLookup,
): boolean {
  const now = planWrite(context, {}, upsert, lookup);
  if (!now || now.action !== held.action || now.productId !== held.productId) return false;
  const names = Object.keys(now.fields);
  if (names.length !== Object.keys(held.fields).length) return false;
  const sameFields = names.every((name) => {
    const a = compactValue(now.fields[name]);
    const b = compactValue(held.fields[name]);
    return a !== undefined && b !== undefined && compactEquals(a, b);
  });
  return sameFields && (held.before === undefined || names.every((name) => showsStill(held, now, name)));
}

function showsStill(held: PlannedWrite, now: PlannedWrite, name: string): boolean {
  const then = held.before?.[name];
  const shown = now.before?.[name];
  if (then === undefined || shown === undefined) return then === shown;
  return compactEquals(then, shown);
}

export function withReplanNote(outcome: RowOutcome): RowOutcome {
  const note = 'changed on the marketplace since it was held: re-planned';
  return { ...outcome, note: outcome.note ? `${outcome.note}; ${note}` : note };
}
