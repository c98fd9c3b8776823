import { describe, expect, it } from 'vitest';
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

  it('refuses a reset time that is not HH:MM', () => {
    expect(() => quotaDayStart(at('2024-05-10T15:30:00Z'), '24:00')).toThrow('daily reset must be HH:MM');
  });
});
