// Which failures are retried is the error table's to say: test/unit/pipeline/error-policy.test.ts.
import { describe, expect, it } from 'vitest';
import { backoffDelay, type RetryPolicy } from '../../../src/seller-api/retry-policy.js';

const policy: RetryPolicy = { retries: 3, baseDelayMs: 100, maxDelayMs: 1_000 };

describe('backoffDelay', () => {
  it.each([
    [1, 0.999_999, 99],
    [2, 0.999_999, 199],
    [3, 0.999_999, 399],
    [4, 0.999_999, 799],
    [5, 0.999_999, 999],
    [30, 0.999_999, 999],
    [3, 0.5, 200],
    [3, 0, 0],
  ])(
    'after attempt %i with random %f waits %i ms (exponential, full jitter, capped)',
    (attempt, random, expected) => {
      expect(backoffDelay(attempt, policy, () => random)).toBe(expected);
    },
  );

  it('keeps a misbehaving random source within the ceiling', () => {
    expect(backoffDelay(1, policy, () => 7)).toBe(100);
    expect(backoffDelay(1, policy, () => -1)).toBe(0);
  });
});
