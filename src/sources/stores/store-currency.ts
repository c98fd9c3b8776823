/**
 * The currency a store keeps its prices in, as its API says (Shopify's `shop { currencyCode }`,
 * WooCommerce's `/data/currencies/current`), or why it could not be read: `unread` is said once,
 * in the summary, never left silent.
 */
export type StoreCurrency = { code: string } | { unread: string };

/**
 * The store's answer as a currency: a code ISO 4217 knows (as Node's ICU does: the list a price
 * cell's `12.50 EUR` is checked against, catalog/currency-marks.ts), else unread. Shopify's `XXX`
 * ("unrecognized currency") or any other unknown code would make every row invalid as `XXX is not
 * a currency code`: a store's setting the seller cannot fix in a file, so it is said once instead.
 */
export function storeCurrencyOf(code: unknown, where: string): StoreCurrency {
  const text = typeof code === 'string' ? code.trim().toUpperCase() : '';
  if (text !== 'XXX' && isoCodes().has(text)) return { code: text };
  const shown = typeof code === 'string' && /^[A-Za-z]{1,8}$/.test(code) ? `"${code}"` : 'none';
  return { unread: `${where} gave ${shown}, no currency code (ISO 4217)` };
}

/**
 * The line the summary gives: the currency the prices go out in, or that none does and why (the
 * prices then go out as numbers, as a plain `12.50` cell's do, in whatever currency the product has).
 */
export function storeCurrencyLine(currency: StoreCurrency): string {
  if ('code' in currency) return `prices in ${currency.code} (the store's currency)`;
  return `the store's currency could not be read (${currency.unread}): prices are sent as numbers, with no currency`;
}

/**
 * The row's price cells as a price cell that names its currency writes them (`19.99 EUR`): the
 * preset then reads the currency as it reads a file's (catalog/price-currency.ts), so a store's
 * prices get exactly a CSV's protection: sent with the product's `currency`, or, where `--fields`
 * leaves it out, refused for a product the marketplace lists in another currency. A blank cell
 * (no sale price) stays blank. Unread: the cells as they are.
 */
export function pricedIn(
  row: Record<string, string>,
  columns: readonly string[],
  currency: StoreCurrency,
): Record<string, string> {
  if (!('code' in currency)) return row;
  for (const column of columns) {
    const cell = row[column];
    if (cell !== undefined && cell.trim() !== '') row[column] = `${cell.trim()} ${currency.code}`;
  }
  return row;
}

let codes: ReadonlySet<string> | undefined;

/** ISO 4217 codes as Node's ICU lists them, made once. */
function isoCodes(): ReadonlySet<string> {
  codes ??= new Set(Intl.supportedValuesOf('currency'));
  return codes;
}
