import { describe, expect, it } from 'vitest';
import { passedReset, sellerDayStart } from '../../../src/sellers/quota-day.js';

const DAY_MS = 24 * 3600 * 1000;
const MIDNIGHT = Date.parse('2024-05-10T00:00:00.000Z');
const RESET = Date.parse('2024-05-10T05:59:00.000Z');

describe("sellerDayStart: the day a seller's requests are counted in and read from", () => {
  it('begins at --daily-reset until a reset a 429 announced has passed', () => {
    expect(sellerDayStart(MIDNIGHT + 5, '00:00', null)).toBe(MIDNIGHT);
    expect(sellerDayStart(RESET - 1, '00:00', RESET)).toBe(MIDNIGHT);
  });

  it("then begins at the API's reset, and every 24 h after it", () => {
    expect(sellerDayStart(RESET, '00:00', RESET)).toBe(RESET);
    // Past midnight: still the API's day begun at 05:59.
    expect(sellerDayStart(MIDNIGHT + DAY_MS + 60_000, '00:00', RESET)).toBe(RESET);
    expect(sellerDayStart(RESET + 3 * DAY_MS + 1, '00:00', RESET)).toBe(RESET + 3 * DAY_MS);
  });
});

describe('passedReset: where the day began, from what Redis holds', () => {
  it('is the latest announced reset once passed, else the one before it (the pause until it lasts)', () => {
    expect(passedReset(RESET, RESET, null)).toBe(RESET);
    expect(passedReset(RESET + 10, RESET + DAY_MS, RESET)).toBe(RESET);
    expect(passedReset(RESET - 10, RESET, null)).toBeNull();
  });
});
