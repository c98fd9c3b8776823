import { nextDailyReset } from '../seller-api/index.js';

const DAY_MS = 24 * 3600 * 1000;

/** The instant (ms) the current quota day began: the latest daily reset (`--daily-reset`, UTC) at or before `now`. */
export function quotaDayStart(now: number, dailyReset: string): number {
  return nextDailyReset(now, dailyReset).getTime() - DAY_MS;
}
