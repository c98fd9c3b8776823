import { SellerApiError } from './errors/seller-api-error.js';

/**
 * How the client retries a failed GET, as data (after Octokit's plugin-retry). Writes are never
 * retried here: a POST whose answer was lost must be looked for before it is sent again
 * (ARCHITECTURE.md decision 4), and only the caller can do that.
 */
export interface RetryPolicy {
  /** Retries after the first attempt: 3 means at most 4 attempts. */
  retries: number;
  /** The backoff ceiling of the first retry; it doubles with each further retry. */
  baseDelayMs: number;
  /** No single wait exceeds this. */
  maxDelayMs: number;
}

export const defaultRetryPolicy: RetryPolicy = { retries: 3, baseDelayMs: 500, maxDelayMs: 30_000 };

/**
 * Whether to try again after attempt number `attempt` (1 = the first) failed with `error`.
 * Never for 400, 401, 404 or 429 (their meaning does not change with time, or the pause is the
 * caller's), yes for 5xx, network failures, timeouts and invalid (e.g. truncated) answers.
 */
export function shouldRetry(error: unknown, attempt: number, policy: RetryPolicy): boolean {
  return error instanceof SellerApiError && error.retryable && attempt <= policy.retries;
}

/**
 * The wait before the retry that follows attempt `attempt`: exponential with full jitter
 * (a uniform draw in [0, min(max, base · 2^(attempt-1)))), so clients that failed together
 * do not come back together. `random` returns [0, 1), like Math.random.
 */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(Math.max(0, Math.min(1, random())) * ceiling);
}
