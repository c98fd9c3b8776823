import type { CurrencyUnsent, ProductFields } from '../interfaces.js';
import { currencyMarksOf } from './currency-marks.js';
import type { RawFields } from './presets/types.js';

const MONEY = ['price', 'sale_price'] as const;

/**
 * `--fields` that sends a price but not `currency`, on a row that names its price's currency (a
 * price cell's `12.50 EUR`, a feed's, a currency column): the bare number would land in whatever
 * currency the marketplace product has. The row keeps the currency, unsent, and the diff sends the
 * price only where the listed product is in it (sync/currency-unsent.ts). Undefined for nearly every
 * row: a run that sends currency, or no price, or a row that names none.
 */
export function currencyUnsentOf(
  fields: ProductFields,
  raws: RawFields,
  send: ReadonlySet<string> | undefined,
): CurrencyUnsent | undefined {
  if (!send || send.has('currency')) return undefined;
  const currency = fields.currency;
  if (typeof currency !== 'string' || currency === '') return undefined;
  const field = MONEY.find((name) => send.has(name) && fields[name] !== undefined);
  if (field === undefined) return undefined;
  const raw = raws[field];
  const text = typeof raw === 'string' ? raw.trim() : String(fields[field]);
  const code = currency.trim().toUpperCase();
  // The cell names it itself (`12.50 EUR`, `€12.50`), or the row's currency is elsewhere (etsy's CURRENCY_CODE).
  const cell =
    currencyMarksOf(text).length > 0 ? `${field} "${text}"` : `${field} "${text}" (currency ${code})`;
  return { currency: code, cell };
}
