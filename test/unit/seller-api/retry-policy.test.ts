import { describe, expect, it } from 'vitest';
import {
  DailyLimitError,
  InvalidRequestError,
  InvalidResponseError,
  NetworkError,
  NotFoundError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
} from '../../../src/seller-api/errors/index.js';
import { backoffDelay, type RetryPolicy, shouldRetry } from '../../../src/seller-api/retry-policy.js';

const policy: RetryPolicy = { retries: 3, baseDelayMs: 100, maxDelayMs: 1_000 };
const details = (status: number | null) => ({ method: 'GET', path: '/products', status });

describe('shouldRetry', () => {
  it.each([
    ['400 Bad Request', new InvalidRequestError(details(400)), false],
    ['401 Unauthorized', new UnauthorizedError(details(401)), false],
    ['404 Not Found', new NotFoundError(details(404)), false],
    ['429 daily limit', new DailyLimitError(details(429), new Date(0)), false],
    ['500', new ServerError(details(500)), true],
    ['503', new ServerError(details(503)), true],
    ['an unexpected 403', new ServerError(details(403)), false],
    ['a network failure', new NetworkError({ ...details(null), code: 'ECONNRESET' }), true],
    ['a timeout', new TimeoutError(details(null), 1000), true],
    ['broken JSON', new InvalidResponseError({ ...details(200), reason: 'not JSON' }, true), true],
    [
      'a well-formed answer of the wrong shape',
      new InvalidResponseError({ ...details(200), reason: 'x' }, false),
      false,
    ],
    ['an error that is not the client’s', new Error('boom'), false],
  ])('after %s on the first attempt: %s', (_name, error, expected) => {
    expect(shouldRetry(error, 1, policy)).toBe(expected);
  });

  it.each([
    [1, true],
    [3, true],
    [4, false],
  ])('after attempt %i of a 503 with 3 retries allowed: %s', (attempt, expected) => {
    expect(shouldRetry(new ServerError(details(503)), attempt, policy)).toBe(expected);
  });

  it('never retries when the policy allows no retries', () => {
    expect(shouldRetry(new ServerError(details(503)), 1, { ...policy, retries: 0 })).toBe(false);
  });
});

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
