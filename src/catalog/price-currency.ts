import { currenciesOf, currencyMarksOf } from './currency-marks.js';
import type { RawFields } from './presets/types.js';

/** What a row's price cells say of its currency: sent, noted, or the reason the row is refused. */
export interface PriceCurrency {
  /** The currency the cells name, to send as `currency` (the row has no currency of its own). */
  currency?: string;
  note?: string;
  refused?: string;
}

const PRICED = ['price', 'sale_price'] as const;
/** Anything but digits, separators and a sign: a cell that may carry a mark (made once, not per row). */
const MAY_BE_MARKED = /[^\d.,\s'+-]/;
const NO_CURRENCY = ': no currency sent';

/** A currency mark in a money cell, and the currencies it may name. */
interface Marked {
  field: string;
  text: string;
  mark: string;
  codes: string[];
}

/**
 * The currency a row writes in its price cells (`12.50 USD`, `€12.50`), whatever preset or mapping
 * file read them (validate.ts finishDraft): parseDecimal reads the number past it, so without this
 * it was dropped in silence. Sent as `currency`, as the google-merchant preset sends its feed's;
 * checked against the row's own `currency` (a column, a feed's or a sheet's currency) and
 * between price and sale price. A code that is no currency (`XYZ`), or a sign that is none's (`¢`),
 * refuses the row. A sign that several currencies write (`$`) names none: no currency is sent and
 * the row says so, as the ebay preset does for a sheet that names no currency.
 */
export function currencyOfPrices(fields: RawFields): PriceCurrency {
  const marked: Marked[] = [];
  for (const field of PRICED) {
    const text = fields[field];
    // Digits alone (nearly every price) have no mark: no regex run for them.
    if (typeof text !== 'string' || !MAY_BE_MARKED.test(text)) continue;
    for (const mark of currencyMarksOf(text)) {
      const { codes } = currenciesOf(mark);
      if (codes.length === 0) return { refused: noCurrency(field, text, mark) };
      marked.push({ field, text, mark, codes });
    }
  }
  if (marked.length === 0) return {};
  const own = typeof fields.currency === 'string' ? fields.currency.trim().toUpperCase() : undefined;
  if (own) {
    const other = marked.find((m) => !m.codes.includes(own));
    return other
      ? { refused: `${quoted(other)} is in ${nameOf(other)}, but the row's currency is ${own}` }
      : {};
  }
  const named = marked.filter((m) => m.codes.length === 1);
  const [first] = named;
  const other = named.find((m) => m.codes[0] !== first?.codes[0]);
  if (first && other)
    return {
      refused: `${quoted(other)} is in ${nameOf(other)}, but ${quoted(first)} is in ${nameOf(first)}`,
    };
  if (first) {
    const currency = first.codes[0] as string;
    const beside = marked.find((m) => !m.codes.includes(currency));
    if (beside)
      return { refused: `${quoted(beside)} is in ${nameOf(beside)}, but ${quoted(first)} is in ${currency}` };
    return { currency };
  }
  return { note: severalNote(marked[0] as Marked) };
}

function quoted(m: Marked): string {
  return `${m.field} "${m.text}"`;
}

/** `EUR` for `€` or `EUR`; the sign itself for one that names several (`$`). */
function nameOf(m: Marked): string {
  return m.codes.length === 1 ? (m.codes[0] as string) : m.mark;
}

function noCurrency(field: string, text: string, mark: string): string {
  const what = /^[A-Z]{3}$/.test(mark) ? 'is not a currency code (ISO 4217)' : "is no currency's sign";
  return `${field} "${text}": ${mark} ${what}: write the currency's code beside the price (12.50 EUR)`;
}

/**
 * A note on a cell that a preset noted already (an ebay sheet that names no currency says so of its
 * `$` price in its own words): one note per cell, not two.
 */
export function notedAlready(notes: readonly string[], note: string): boolean {
  const head = note.slice(0, note.indexOf(NO_CURRENCY) + NO_CURRENCY.length);
  return notes.some((other) => other.startsWith(head));
}

function severalNote(m: Marked): string {
  const shown = m.codes.length > 3 ? `${m.codes.slice(0, 3).join(', ')} …` : m.codes.join(', ');
  const number = m.text.replace(m.mark, '').trim();
  return `${quoted(m)}${NO_CURRENCY}: ${m.mark} is the sign of several currencies (${shown}); write its code (${number} ${m.codes[0]}) or give a currency column`;
}
