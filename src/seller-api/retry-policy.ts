/**
 * How often and how long to wait when a request is tried again, as data (after Octokit's
 * plugin-retry). Which failures are worth another try is not said here: the worker's error table
 * says it (src/sync/error-policy.ts), so that one place decides for every layer.
 */
export interface RetryPolicy {
  /** Retries after the first attempt: 3 means at most 4 attempts. */
  retries: number;
  /** The backoff ceiling of the first retry; it doubles with each further retry. */
  baseDelayMs: number;
  /** No single wait exceeds this. */
  maxDelayMs: number;
}

/**
 * How the client tries a failed GET again. Writes are never retried by the client: a POST whose
 * answer was lost must be looked for before it is sent again (docs/architecture.md, decision 4), and only
 * the caller can do that.
 */
export interface GetRetry {
  policy: RetryPolicy;
  /** Whether this failure is worth another try: the caller's error table decides. */
  retryable: (error: unknown) => boolean;
  /** The retries this failure is worth (the caller's table); the policy's when absent. */
  retries?: (error: unknown) => number;
  /**
   * What is thrown once a retryable failure used up its tries (the caller's table decides: e.g. a
   * pause when no try reached the API). `tries`: each try's failure, `error` last. Absent: the
   * failure itself.
   */
  afterTries?: (error: unknown, tries: readonly unknown[]) => unknown;
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
