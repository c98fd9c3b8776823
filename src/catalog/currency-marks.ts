/**
 * The currency written beside a number (`$12.50`, `12.50 EUR`, `JPY 1500`): parseDecimal reads past
 * it (decimal.ts), and the generic preset sends what it names (price-currency.ts).
 */

/** Currency symbols (any Unicode `Sc`) or an ISO 4217-like code, before or after the number. */
export const CURRENCY_PREFIX = /^(?:\p{Sc}|[A-Z]{3}(?![A-Z]))\s*/u;
export const CURRENCY_SUFFIX = /\s*(?:\p{Sc}|(?<![A-Z])[A-Z]{3})$/u;
const SIGN = /^[+-]\s*/;

/** The marks beside a number, before and after it, as parseDecimal's splitSign strips them. */
export function currencyMarksOf(text: string): string[] {
  let rest = text
    .replace(/[\u00a0\u202f]/g, ' ')
    .trim()
    .replace(SIGN, '');
  const marks: string[] = [];
  const before = CURRENCY_PREFIX.exec(rest);
  if (before) {
    marks.push(before[0].trim());
    rest = rest.slice(before[0].length).replace(SIGN, '');
  }
  const after = CURRENCY_SUFFIX.exec(rest);
  if (after) marks.push(after[0].trim());
  return marks;
}

/**
 * The currencies a mark names: a code, itself where it is one (ISO 4217, as this Node's ICU knows
 * them); a sign, every currency that writes it (CLDR's narrow symbols in English: `€` is EUR's
 * alone, `$` is USD's, CAD's, AUD's and 27 more). `main`: the one whose own symbol it is (USD's `$`),
 * first in the list. None: no currency (`XYZ`, `¢`).
 */
export function currenciesOf(mark: string): { codes: string[]; main?: string } {
  const table = currencyTable();
  if (/^[A-Z]{3}$/.test(mark)) return { codes: table.codes.has(mark) ? [mark] : [] };
  const codes = table.bySign.get(mark) ?? [];
  const main = table.mainOf.get(mark);
  if (main === undefined || !codes.includes(main)) return { codes };
  return { codes: [main, ...codes.filter((code) => code !== main)], main };
}

interface CurrencyTable {
  codes: ReadonlySet<string>;
  bySign: ReadonlyMap<string, string[]>;
  mainOf: ReadonlyMap<string, string>;
}

let table: CurrencyTable | undefined;

/** Built once, when a mark is first met (a price cell with a currency is rare). */
function currencyTable(): CurrencyTable {
  if (table) return table;
  const codes = Intl.supportedValuesOf('currency');
  const bySign = new Map<string, string[]>();
  const mainOf = new Map<string, string>();
  for (const code of codes) {
    const narrow = symbolOf(code, 'narrowSymbol');
    if (narrow !== code) bySign.set(narrow, [...(bySign.get(narrow) ?? []), code]);
    const own = symbolOf(code, 'symbol');
    if (own === narrow && !mainOf.has(own)) mainOf.set(own, code);
  }
  table = { codes: new Set(codes), bySign, mainOf };
  return table;
}

function symbolOf(code: string, currencyDisplay: 'symbol' | 'narrowSymbol'): string {
  const parts = new Intl.NumberFormat('en', { style: 'currency', currency: code, currencyDisplay });
  return parts.formatToParts(1).find((part) => part.type === 'currency')?.value ?? code;
}
