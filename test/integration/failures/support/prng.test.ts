import { describe, expect, it } from 'vitest';
import { mulberry32 } from './prng.js';

describe('the seeded PRNG of the fault tests', () => {
  it('gives the same sequence for the same seed, and another for another seed', () => {
    const draw = (seed: number) => Array.from({ length: 5 }, mulberry32(seed));

    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
  });

  it('draws in [0, 1), spread over the range', () => {
    const random = mulberry32(7);
    const draws = Array.from({ length: 10_000 }, random);

    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1);
    expect(draws.filter((x) => x < 0.1).length).toBeGreaterThan(900);
    expect(draws.filter((x) => x < 0.1).length).toBeLessThan(1100);
  });
});
