import { UsageError } from './usage-error.js';

/**
 * A percentage option given a number between 0 and 1 without its `%` (`--max-price-change 0.5`):
 * it may be that many percent or a fraction (0.5 = 50%), and the two guard very differently (a
 * 0.5% guard holds nearly every price change, a 50% one few). Refused in one line giving both
 * readings; `0` and `1` and above, and any value with `%`, are percent as written.
 */
export function refuseBareFraction(option: string, text: string, value: number): void {
  if (!(value > 0 && value < 1) || text.includes('%')) return;
  const written = text.trim();
  const asFraction = Math.round(value * 100 * 1e6) / 1e6;
  throw new UsageError(
    `${option} ${written}: a number below 1 needs its % sign, as it may be a fraction: write ${written.replace(',', '.')}% or ${asFraction}%`,
  );
}
