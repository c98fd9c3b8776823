import { describe, expect, it } from 'vitest';
import { spentDays } from '../../../src/sandbox/index.js';
import { catalogRows } from '../support/catalog.js';
import { expectExactCatalog } from './support/exact-catalog.js';
import { type FailureRig, SELLER_A, useFailureRig } from './support/rig.js';

// Issue 31: once the daily limit is known, a crossing costs one 429 (the one request sent past it),
// not one per request in flight. 8 requests at once, 20 a "day" of two seconds: five or more
// crossings, counted from the sandbox's request log, day by day.
const DAILY_LIMIT = 20;
const DAY_MS = 2000;
const ROWS = 100;
const CONCURRENCY = 8;

/** Runs the catalog at C = 8 through the rig; the 429s of each sandbox day whose limit it spent, in order. */
async function refusedPerCrossing(rig: FailureRig): Promise<number[]> {
  const rows = catalogRows(ROWS);
  const source = await rig.csv('catalog.csv', rows);

  const result = await rig.cli(['run', source, '--concurrency', String(CONCURRENCY)]);

  expect(result.code).toBe(0);
  expectExactCatalog(rig.sandbox.products(SELLER_A), rows);
  const refused = spentDays(rig.sandbox.timedRequests(), DAY_MS, DAILY_LIMIT).map((day) => day.refused);
  expect(refused.length, 'days spent').toBeGreaterThanOrEqual(4);
  return refused;
}

describe('crossing a daily limit the API says (X-RateLimit-Remaining; Retry-After in seconds)', () => {
  const rig = useFailureRig(() => ({ dailyLimit: DAILY_LIMIT, dayLengthMs: DAY_MS }));

  it('gets at most one 429 per crossing, the first one too, and ends exact', {
    timeout: 60_000,
  }, async () => {
    const refused = await refusedPerCrossing(rig);
    for (const count of refused)
      expect(count, `429s per crossing: ${refused.join(', ')}`).toBeLessThanOrEqual(1);
  });
});

describe('crossing a daily limit the API does not say (no rate headers): learned from its 429s', () => {
  const rig = useFailureRig(() => ({
    dailyLimit: DAILY_LIMIT,
    dayLengthMs: DAY_MS,
    limitHeaders: false,
    resetHeader: 'x-ratelimit-reset-ms',
  }));

  it('gets at most one 429 per crossing once the limit is learned, and ends exact', {
    timeout: 60_000,
  }, async () => {
    const refused = await refusedPerCrossing(rig);
    // The first crossing teaches the limit; the second may still meet a limit learned one too high,
    // when the run's first quota day took in requests of the API's day before (it had not said when
    // its day began). From the third on, the limit is the API's day's own.
    for (const count of refused.slice(2)) {
      expect(count, `429s per crossing: ${refused.join(', ')}`).toBeLessThanOrEqual(1);
    }
  });
});
