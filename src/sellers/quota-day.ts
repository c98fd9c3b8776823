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
