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

const ADD = 'and --fields leaves currency out: add currency to --fields';

/**
 * A row whose price is in a currency it names, sent without `currency` (`--fields sku,price`,
 * catalog/unsent-currency.ts): its price may go only to a product in that currency, else the
 * product would show the number in another one (12.50 EUR as 12.50 USD). The reason it is refused
 * (one line, naming the row and the cell), or undefined where the price may go. Checked whether
 * or not the price differs: an unchanged 12.50 in the wrong currency is no more right.
 */
export function currencyUnsentRefusal(
  upsert: ProductUpsert,
  remote: ListedCurrency | undefined,
): string | undefined {
  const unsent = upsert.currencyUnsent;
  if (unsent === undefined) return undefined;
  const said = `row ${upsert.row}: ${unsent.cell} is in ${unsent.currency}, but`;
  if (!remote)
    return `${said} a new product would be created without it: --fields leaves currency out: add currency to --fields`;
  const theirs = remote.currency;
  if (typeof theirs !== 'string' || theirs.trim() === '') {
    const why = remote.unread
      ? `product ${remote.id}'s currency is not known (this run read no product, and this tool never sent one),`
      : `product ${remote.id} shows no currency on the marketplace,`;
    return `${said} ${why} ${ADD}`;
  }
  const code = theirs.trim().toUpperCase();
  return code === unsent.currency
    ? undefined
    : `${said} product ${remote.id} is in ${code} on the marketplace, ${ADD}`;
}
