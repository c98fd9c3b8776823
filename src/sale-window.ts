/**
 * Whether a scheduled sale runs at an instant: one whose end has passed is no sale, nor one that
 * has not begun, though the store keeps its price. A sale without dates always runs. A store read
 * through its API (its `date_on_sale_*_gmt`, written as the export's sale-date columns) and its
 * export are judged by this one rule, in the preset (catalog/presets/sale-dates.ts), so the same
 * store syncs to the same products either way (docs/stores.md).
 */
export type SaleWindowState = 'running' | 'not started' | 'ended';

/** `from` and `to` in epoch milliseconds, null when the sale gives none; `now` likewise. */
export function saleWindowState(from: number | null, to: number | null, now: number): SaleWindowState {
  if (to !== null && to < now) return 'ended';
  if (from !== null && from > now) return 'not started';
  return 'running';
}
