import { refuseBareFraction } from '../bare-fraction.js';
import { toDecimal } from '../catalog/decimal.js';
import { UsageError } from '../usage-error.js';

/**
 * The guards' limits (`--max-invalid N|P%`, `--max-updates N|P%`, `--max-price-change P%`): parsed
 * here, checked here, so the command line, job files and the workers read them the same way.
 */
export type GuardLimit = { kind: 'count'; count: number } | { kind: 'percent'; percent: number };

const COUNT = /^\s*(\d{1,12})\s*$/;
const PERCENT = /^\s*(\d{1,3}(?:\.\d+)?)\s*%\s*$/;

/**
 * `N` or `P%` (0 to 100); anything else is the user's mistake: one line naming the option and what
 * it counts (`--max-missing` counts products, not rows).
 */
export function parseCountOrPercent(
  value: string,
  option: string,
  counted: 'row' | 'product' = 'row',
): string {
  const text = String(value).trim();
  const percent = PERCENT.exec(text);
  if (percent) {
    if (Number(percent[1]) > 100)
      throw new UsageError(`${option} takes N or P% with P up to 100, not "${value}"`);
    return `${Number(percent[1])}%`;
  }
  if (COUNT.test(text)) return String(Number(text));
  throw new UsageError(
    `${option} takes a ${counted} count (e.g. 5) or a percentage (e.g. 10%), not "${value}"`,
  );
}

/**
 * `P%`, or `P` (any size: a price may double, +100%, or more). `P` below 1 without its `%` is
 * refused (bare-fraction.ts): `0.5` may be half a percent or half the price.
 */
export function parsePercent(value: string, option: string): string {
  const match = /^\s*(\d{1,6}(?:\.\d+)?|\.\d+)\s*%?\s*$/.exec(String(value));
  if (!match) throw new UsageError(`${option} takes a percentage such as 50%, not "${value}"`);
  refuseBareFraction(option, String(value), Number(match[1]));
  return `${Number(match[1])}%`;
}

/** A limit as stored in the run spec (`"5"`, `"10%"`). */
export function readLimit(text: string): GuardLimit {
  return text.endsWith('%')
    ? { kind: 'percent', percent: Number(text.slice(0, -1)) }
    : { kind: 'count', count: Number(text) };
}

/** True when `count` (of `base`) is more than the limit allows: `--max-invalid 2` trips at 3. */
export function exceeds(count: number, base: number, limit: GuardLimit): boolean {
  if (limit.kind === 'count') return count > limit.count;
  // count / base > P / 100, without a division: no rounding decides a guard.
  return count * 100 > limit.percent * base;
}

/** A share as people read it: `90%`, `2.5%`. */
export function shareText(count: number, base: number): string {
  if (base === 0) return count === 0 ? '0%' : '100%';
  return `${Math.round((count * 1000) / base) / 10}%`;
}

/**
 * The row guard of `--max-price-change`: the reason a price move is held, or null when it is within
 * the limit (or either side is not a price). From a price of 0, any move is more than any limit.
 */
export function priceChangeRefusal(oldPrice: unknown, newPrice: unknown, maxPercent: string): string | null {
  const move = moveBeyond(oldPrice, newPrice, maxPercent);
  return move && `price ${move}`;
}

/**
 * `12 → 15 (+25%) exceeds --max-price-change 10%`, or null when the move is within the limit (or
 * either side is not a price): the one wording of a held move, whichever price moved (buyer-price.ts).
 */
export function moveBeyond(oldPrice: unknown, newPrice: unknown, maxPercent: string): string | null {
  const before = toDecimal(oldPrice);
  const after = toDecimal(newPrice);
  if (before === null || after === null || before === after) return null;
  const from = Number(before);
  const to = Number(after);
  const limit = Number(maxPercent.replace('%', ''));
  const change = from === 0 ? null : ((to - from) / Math.abs(from)) * 100;
  if (change !== null && Math.abs(change) <= limit) return null;
  const moved = change === null ? 'from 0' : `${change > 0 ? '+' : ''}${Math.round(change * 10) / 10}%`;
  return `${before} → ${after} (${moved}) exceeds --max-price-change ${limit}%`;
}

/**
 * The row guard for a product an `--incremental` run did not read: its price is taken to be the one
 * this tool last sent it (`lastSent`, from its record), and the reason says so. A product it never
 * sent a price has none known: held, as the guard cannot tell how far its price moves.
 */
export function lastSentPriceRefusal(
  lastSent: unknown,
  newPrice: unknown,
  maxPercent: string,
): string | null {
  const before = toDecimal(lastSent);
  if (before === null) {
    const after = toDecimal(newPrice);
    if (after === null) return null;
    return `price ${after}: not weighed against --max-price-change ${maxPercent}, its price before is unknown (the run read no product, and this tool never sent it a price)`;
  }
  const refusal = priceChangeRefusal(before, newPrice, maxPercent);
  return refusal && `${refusal} (${before}: the price this tool last sent; the run read no product)`;
}
