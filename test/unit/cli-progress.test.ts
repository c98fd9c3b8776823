import { describe, expect, it } from 'vitest';
import { RecentRate } from '../../src/cli/progress.js';

describe('RecentRate, the rows/s behind the progress bar', () => {
  it('is 0 until half a second of samples exists', () => {
    const rate = new RecentRate();
    expect(rate.add(0, 0)).toBe(0);
    expect(rate.add(400, 40)).toBe(0);
  });

  it('measures rows per second over the samples it holds', () => {
    const rate = new RecentRate();
    rate.add(0, 0);
    expect(rate.add(2000, 100)).toBe(50);
  });

  it('forgets samples older than its window, so a long pause stops counting', () => {
    const rate = new RecentRate(10_000);
    rate.add(0, 0);
    rate.add(5_000, 500);
    rate.add(20_000, 500);
    // Only the last 10 s: 500 → 500 while paused.
    expect(rate.add(21_000, 500)).toBe(0);
  });
});
