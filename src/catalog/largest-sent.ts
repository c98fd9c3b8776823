import type { Decimal } from '../interfaces.js';
import { canonicalise } from './decimal.js';
import { asMoney, decimalsOf } from './money.js';

/**
 * The bound on what goes out as a JSON number: a price (in its minor unit, cents at 2 decimals), a
 * quantity, or a weight (in its own last decimal: 12.5 is 125) counts at most 2^53 - 1. Past it a double skips whole numbers, so the number sent is
 * one near what the seller wrote, not it (`99999999999999999999.995` rounds to 1e20, a double that
 * no longer tells the cents); an API that keeps money in minor units cannot hold it either. The
 * API's spec states no bound, so nothing there would refuse it: this tool does, before any request.
 */
const LARGEST_COUNT = BigInt(Number.MAX_SAFE_INTEGER);

/** The largest value sent with `places` decimals: 90071992547409.91 at 2, 9007199254740991 at 0. */
export function largestSent(places: number): Decimal {
  const digits = LARGEST_COUNT.toString();
  const point = digits.length - places;
  return canonicalise(false, digits.slice(0, point), digits.slice(point));
}

/** |d| in units of 10^-places (`d` has no more than `places` decimals). */
function minorUnits(d: Decimal, places: number): bigint {
  const [whole = '0', frac = ''] = (d.startsWith('-') ? d.slice(1) : d).split('.');
  return BigInt(whole + frac.padEnd(places, '0'));
}

/**
 * Why `sent` (a price rounded to `places` decimals, a whole number or a weight at 0) cannot go out as the
 * JSON number of the cell `written`; null when it can. `how` says what made `sent` differ from
 * the cell, for the reason to show it (`rounded to 2 decimals`, `with the tax`); omitted when the
 * cell is the value. One line, the cell quoted as written.
 */
export function tooLargeToSend(
  field: string,
  written: string,
  sent: Decimal,
  places: number,
  how?: { rounded?: true; taxRate?: Decimal },
): string | null {
  // A value with more decimals than `places` (a price of a run without --price-decimals) counts in its own.
  const scale = Math.max(places, decimalsOf(sent));
  if (minorUnits(sent, scale) <= LARGEST_COUNT) return null;
  const tax = how?.taxRate === undefined ? '' : ` + ${how.taxRate}% tax`;
  const became = how?.taxRate
    ? `with the tax it is ${asMoney(sent, scale)}; `
    : how?.rounded
      ? `rounded to ${scale} decimal${scale === 1 ? '' : 's'} it is ${asMoney(sent, scale)}; `
      : '';
  return `${field} "${written}"${tax} is too large to send exactly (${became}at most ${largestSent(scale)})`;
}
