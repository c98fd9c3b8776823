import { describe, expect, it } from 'vitest';
import { thousands } from '../../src/thousands.js';

describe('thousands', () => {
  it('groups digits by three as en-US does', () => {
    for (const n of [
      0, 7, 999, 1000, 12_345, 999_999, 1_000_000, 123_456_789, 9_007_199_254_740_991, -4_321,
    ]) {
      expect(thousands(n)).toBe(n.toLocaleString('en-US'));
    }
  });
});
