import type { ProductUpsert, RowOutcome } from '../interfaces.js';

/**
 * The source's rows, with whether the source itself failed (its read threw: a feed dropped, a
 * store's file broke off) rather than what the producer did with a row (a write, an interrupt).
 * Only the former leaves rows read that are still the run's to record (producer.ts). A plain
 * iterator, not a generator: one step more per row, no more.
 */
export function watchSource<T>(rows: AsyncIterable<T>): { rows: AsyncIterable<T>; failed: () => boolean } {
  let failed = false;
  const iterator = rows[Symbol.asyncIterator]();
  const watched: AsyncIterator<T> = {
    next: () =>
      iterator.next().catch((error: unknown) => {
        failed = true;
        throw error;
      }),
    // The loop that reads these rows ends early (an interrupt, a failed write): the source is closed.
    return: async (value?: unknown) => (await iterator.return?.(value)) ?? { done: true, value: undefined },
  };
  return { rows: { [Symbol.asyncIterator]: () => watched }, failed: () => failed };
}

/**
 * A row read but never sent, its run ended early: what its report line says (unsent-rows.ts);
 * `failed` unless its run was interrupted (ending-early.ts unsentStatusOf).
 */
export function unsentOutcome(
  upsert: ProductUpsert,
  reason: string,
  status: 'ok' | 'failed' = 'failed',
): RowOutcome {
  return {
    row: upsert.row,
    key: upsert.key,
    action: 'skipped',
    productId: null,
    status,
    error: reason,
  };
}
