import type { Decimal } from '../interfaces.js';
import { canonicalise } from './decimal.js';

/**
 * Prices as money: no more decimals than the currency's minor unit. A source may keep more
 * (PrestaShop stores net prices as `125.966387`); no marketplace takes them, so such a price is
 * sent rounded, and the row's note says so.
 */

/** The fields that are money; `weight` keeps what the file says. */
export const MONEY_FIELDS: ReadonlySet<string> = new Set(['price', 'sale_price']);

/**
 * The number of decimals of a canonical decimal (no trailing zeros): a look for the dot, and most
 * prices have none or two, so the import's hot path pays nothing more.
 */
export function decimalsOf(d: Decimal): number {
  const dot = d.indexOf('.');
  return dot < 0 ? 0 : d.length - dot - 1;
}

/**
 * `d` to `places` decimals, half up (an exact half goes away from zero, as a till and the API's own
 * rounding to cents do: 2.675 → 2.68, -0.005 → -0.01), on the digits: no float ever touches it.
 * A value that has `places` decimals or fewer comes back as it is.
 */
export function roundHalfUp(d: Decimal, places: number): Decimal {
  if (decimalsOf(d) <= places) return d;
  const negative = d.startsWith('-');
  const [whole = '0', frac = ''] = (negative ? d.slice(1) : d).split('.');
  // Truncated to `places`, then one unit more when the first digit dropped is 5 or above.
  const up = frac.charCodeAt(places) >= 0x35 ? 1n : 0n;
  const kept = BigInt(whole + frac.slice(0, places)) + up;
  const text = kept.toString().padStart(places + 1, '0');
  const point = text.length - places;
  return canonicalise(negative, text.slice(0, point), text.slice(point));
}

/** As money is written: `149.9` at 2 decimals is `149.90`, `125` at 0 is `125`. */
export function asMoney(d: Decimal, places: number): string {
  const missing = places - decimalsOf(d);
  if (places === 0 || missing <= 0) return d;
  return `${d}${d.includes('.') ? '' : '.'}${'0'.repeat(missing)}`;
}

/**
 * The row's note for a price sent with fewer decimals than the file gave it: `price 125.966387 →
 * 125.97`, or with the tax added first, from the unrounded net (`price 125.966387 + 19% tax → 149.90`).
 * `given` is the cell as the file writes it (`125,966387`).
 */
export function roundedNote(
  field: string,
  given: string,
  sent: Decimal,
  places: number,
  taxRate?: Decimal,
): string {
  const tax = taxRate === undefined ? '' : ` + ${taxRate}% tax`;
  return `${field} ${given}${tax} → ${asMoney(sent, places)} (rounded half up to ${places} decimal${places === 1 ? '' : 's'})`;
}

/**
 * Why a money value must not be sent: the source gives it above 0 and rounding (to `places`
 * decimals, after any tax) made it 0. A product the source prices would go on sale for nothing; a
 * free product is one whose source says 0. Null when it may be sent. `written`: the cell as the
 * file writes it, which the reason quotes (`given` unless told).
 */
export function roundedToZero(
  field: string,
  given: Decimal,
  sent: Decimal,
  places: number,
  how: { taxRate?: Decimal | undefined; written?: string } = {},
): string | null {
  if (sent !== '0' || given === '0' || given.startsWith('-')) return null;
  const { taxRate, written = given } = how;
  const tax = taxRate === undefined ? '' : ` + ${taxRate}% tax`;
  const smallest = places === 0 ? '1' : `0.${'0'.repeat(places - 1)}1`;
  return `${field} ${written}${tax} rounds to ${asMoney('0' as Decimal, places)} (${places} decimal${places === 1 ? '' : 's'}): a price above 0 is never sent as 0; give at least ${smallest}, or 0 for a free product`;
}
