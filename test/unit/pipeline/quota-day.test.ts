import { describe, expect, it } from 'vitest';
import { nextDailyReset } from '../../../src/seller-api/index.js';
import { quotaDayStart } from '../../../src/sellers/quota-day.js';

const at = (iso: string) => Date.parse(iso);

describe('quotaDayStart', () => {
  it.each<[now: string, dailyReset: string, start: string]>([
    ['2024-05-10T15:30:00Z', '00:00', '2024-05-10T00:00:00Z'],
    ['2024-05-10T00:00:00Z', '00:00', '2024-05-10T00:00:00Z'],
    ['2024-05-10T00:00:00.001Z', '00:00', '2024-05-10T00:00:00Z'],
    ['2024-05-09T23:59:59.999Z', '00:00', '2024-05-09T00:00:00Z'],
    ['2024-05-10T15:30:00Z', '08:00', '2024-05-10T08:00:00Z'],
    ['2024-05-10T07:59:59.999Z', '08:00', '2024-05-09T08:00:00Z'],
    ['2024-05-10T08:00:00Z', '08:00', '2024-05-10T08:00:00Z'],
    ['2024-05-10T08:00:00.001Z', '08:00', '2024-05-10T08:00:00Z'],
    ['2024-05-10T00:10:00Z', '23:30', '2024-05-09T23:30:00Z'],
    ['2024-05-10T23:29:00Z', '23:30', '2024-05-09T23:30:00Z'],
    ['2024-05-10T23:31:00Z', '23:30', '2024-05-10T23:30:00Z'],
    ['2024-05-10T12:00:00Z', '7:05', '2024-05-10T07:05:00Z'],
    ['2024-03-01T01:00:00Z', '02:00', '2024-02-29T02:00:00Z'],
    ['2025-01-01T00:30:00Z', '12:00', '2024-12-31T12:00:00Z'],
  ])('at %s with a reset at %s, the quota day began at %s', (now, dailyReset, start) => {
    expect(quotaDayStart(at(now), dailyReset)).toBe(at(start));
  });

  it('is never after now, and less than a day before it', () => {
    const now = at('2024-05-10T15:30:00Z');
    for (const reset of ['00:00', '06:15', '15:30', '15:31', '23:59']) {
      const start = quotaDayStart(now, reset);
      expect(start).toBeLessThanOrEqual(now);
      expect(now - start).toBeLessThan(86_400_000);
    }
  });

  it('answers the same, called in any order, as worked out afresh from the next reset', () => {
    // Instants around two resets, back and forth, with two reset times taking turns: what the
    // function remembers of its last day must never answer for another day or another reset time.
    const base = at('2024-05-10T08:00:00Z');
    const offsets = [0, -1, 1, 86_399_999, 86_400_000, -86_400_000, -86_400_001, 3_600_000, -1, 0];
    for (const reset of ['08:00', '08:00', '20:00', '08:00']) {
      for (const offset of offsets) {
        const now = base + offset;
        expect(quotaDayStart(now, reset)).toBe(nextDailyReset(now, reset).getTime() - 86_400_000);
      }
    }
  });

  it('refuses a reset time that is not HH:MM', () => {
    expect(() => quotaDayStart(at('2024-05-10T15:30:00Z'), '24:00')).toThrow('daily reset must be HH:MM');
  });
});
