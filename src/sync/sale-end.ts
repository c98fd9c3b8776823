import { compareDecimals, decimalToNumber, toDecimal } from '../catalog/decimal.js';
import type { FieldValue, ProductFields, ProductUpsert } from '../interfaces.js';
import { type CompactValue, compactEquals } from './compact-value.js';

/**
 * A sale that ended in the source, ended on the marketplace. A blank cell never clears a field, and
 * the API has no way to clear one (the sandbox refuses `null`, as a strict API would: spec 2.1
 * leaves it unsaid), so a sale price left there would sell the product below the store's price for
 * good once the price moves (a compare-at removed, then the price raised). The row that says the
 * product is on no sale (ProductUpsert.noSale) therefore sends its price as its sale price: the
 * buyer pays the price. Only where the product shows a sale price below the price it will have: a
 * product that never had one, or whose sale price is the price already, gets no write.
 */
export interface SaleEnd {
  /** The sale price to send: the price the product has after the write. */
  value: FieldValue;
  note: string;
}

/** The diff's options that bear on it (DiffOptions: `--create-only-fields`, `--fields`, `--keep-remote-edits`). */
export interface SaleEndOptions {
  createOnly?: ReadonlySet<string>;
  sent?: ReadonlySet<string>;
  keepRemote?: ReadonlySet<string> | 'all';
}

/**
 * The sale price ending the product's sale, or null when there is none to end. `listed` is the
 * product as read (empty for one not read: an `--incremental` run from its record, which is taken
 * to show what this tool last sent it, `lastSent`); `changed` holds the fields the diff sends
 * already (a new price is the one the sale price must meet).
 */
export function saleToEnd(
  upsert: ProductUpsert,
  listed: Record<string, CompactValue>,
  lastSent: Record<string, CompactValue> | undefined,
  changed: ProductFields,
  options: SaleEndOptions,
): SaleEnd | { kept: string } | null {
  if (!upsert.noSale || upsert.fields.sale_price !== undefined) return null;
  if (options.createOnly?.has('sale_price') || (options.sent && !options.sent.has('sale_price'))) return null;
  const sent = lastSent?.sale_price;
  const shown = listed.sale_price ?? sent;
  // The price the product has after the write: the source's, unless an update never sends it.
  const source = options.createOnly?.has('price') ? undefined : (changed.price ?? upsert.fields.price);
  const price = source ?? listed.price ?? lastSent?.price;
  const sale = toDecimal(shown);
  const after = toDecimal(price);
  // A sale price of 0 is how some APIs show none (as BigCommerce's export does): nothing to end.
  if (sale === '0') return null;
  if (shown === undefined || sale === null || after === null || compareDecimals(sale, after) >= 0)
    return null;
  // A sale price set on the marketplace (never sent by this tool) is kept where the user asks.
  const keep = options.keepRemote === 'all' || options.keepRemote?.has('sale_price');
  if (keep && (sent === undefined || !compactEquals(sent, shown)))
    return { kept: `sale_price ${text(shown)} set on the marketplace, kept (the source has no sale now)` };
  return {
    value: typeof price === 'number' ? price : decimalToNumber(after),
    note: `sale_price ${text(shown)} ended (the source has no sale now): sent as the price ${after}, as the API cannot clear a field`,
  };
}

function text(value: CompactValue): string {
  const decimal = toDecimal(value);
  return decimal ?? String(value);
}
