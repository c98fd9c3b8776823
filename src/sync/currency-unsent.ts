import type { ProductUpsert } from '../interfaces.js';

/**
 * The row's product as the diff knows it: its id, its currency as listed (or, `unread` by an
 * `--incremental` run, as this tool last sent it), absent for a product to create.
 */
export interface ListedCurrency {
  id: string;
  currency: unknown;
  unread?: boolean;
}

/**
 * A row whose price is in a currency it names, sent without `currency` (`--fields sku,price`,
 * catalog/unsent-currency.ts, which notes it on the row): where the listed product is in another
 * currency, the product would show the number in that one (12.50 EUR as 12.50 USD), so the row is
 * refused (one line, naming the row and the cell). Checked whether or not the price differs: an
 * unchanged 12.50 in the wrong currency is no more right. Where the marketplace shows no currency
 * (the API's products need not have one), a product to create, or an `--incremental` run that never
 * sent one: nothing tells of a mismatch, and the row goes out with its note. Undefined where the
 * price may go.
 */
export function currencyUnsentRefusal(
  upsert: ProductUpsert,
  remote: ListedCurrency | undefined,
): string | undefined {
  const unsent = upsert.currencyUnsent;
  if (unsent === undefined || !remote) return undefined;
  const theirs = remote.currency;
  if (typeof theirs !== 'string' || theirs.trim() === '') return undefined;
  const code = theirs.trim().toUpperCase();
  if (code === unsent.currency) return undefined;
  const listed = remote.unread ? 'was last sent in' : 'is in';
  return `row ${upsert.row}: ${unsent.cell} is in ${unsent.currency}, but product ${remote.id} ${listed} ${code} on the marketplace, and --fields leaves currency out: add currency to --fields`;
}
