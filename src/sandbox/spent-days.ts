import type { TimedRequest } from './request-log.js';

/** One sandbox "day" (days start at the epoch) whose daily limit a client spent. */
export interface SpentDay {
  /** Its number since the epoch: it began at `day × dayMs` and reset at `(day + 1) × dayMs`. */
  day: number;
  sent: number;
  refused: number;
}

/**
 * The days whose limit the requests spent (they reached it, or met a 429), in order: what a test or
 * a benchmark of daily-limit crossings counts (429s per crossing, the first request after a reset).
 */
export function spentDays(requests: readonly TimedRequest[], dayMs: number, dailyLimit: number): SpentDay[] {
  const days = new Map<number, SpentDay>();
  for (const request of requests) {
    const day = Math.floor(request.at / dayMs);
    const counts = days.get(day) ?? { day, sent: 0, refused: 0 };
    if (request.status === 429) counts.refused++;
    else counts.sent++;
    days.set(day, counts);
  }
  return [...days.values()]
    .filter((c) => c.refused > 0 || c.sent >= dailyLimit)
    .sort((a, b) => a.day - b.day);
}
