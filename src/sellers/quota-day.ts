import { nextDailyReset } from '../seller-api/index.js';

const DAY_MS = 24 * 3600 * 1000;

/**
 * The last quota day worked out: every request asks for its day two or three times (limit-gate.ts,
 * limit-window.ts), and the answer changes once a day. Any instant of that day gets it back
 * without parsing `dailyReset` and building Dates again.
 */
let last: { dailyReset: string; start: number } | null = null;

/** The instant (ms) the current quota day began: the latest daily reset (`--daily-reset`, UTC) at or before `now`. */
export function quotaDayStart(now: number, dailyReset: string): number {
  if (last !== null && last.dailyReset === dailyReset && now >= last.start && now < last.start + DAY_MS)
    return last.start;
  const start = nextDailyReset(now, dailyReset).getTime() - DAY_MS;
  last = { dailyReset, start };
  return start;
}

/**
 * The instant (ms) the seller's day began: the day its requests are counted in (the limiter, the
 * daily budget) and read from (`status`, the plan, the dashboard). The one answer for writers and
 * readers alike, or they count in one day and read another. Once a reset a 429 announced has
 * passed (`lastReset`), the API counts afresh from it, and again every 24 h after it; before any,
 * the day begins at `--daily-reset`.
 */
export function sellerDayStart(now: number, dailyReset: string, lastReset: number | null): number {
  if (lastReset === null || lastReset > now) return quotaDayStart(now, dailyReset);
  return lastReset + Math.floor((now - lastReset) / DAY_MS) * DAY_MS;
}

/**
 * The last announced reset that has passed, from what Redis holds (limit-reset.ts): the latest
 * announced once it has passed; while it is ahead (the seller is paused until it), the one before
 * it, which began the day that pause ends.
 */
export function passedReset(now: number, announced: number | null, before: number | null): number | null {
  if (announced !== null && announced <= now) return announced;
  return before !== null && before <= now ? before : null;
}

/** A stored instant (ms), or null when none is stored or it is not one. */
export function storedInstant(text: string | null | undefined): number | null {
  const at = Number(text ?? '');
  return text && Number.isSafeInteger(at) && at > 0 ? at : null;
}
