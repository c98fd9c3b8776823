/**
 * Why a seller's requests stop: thrown before a request is sent (nothing is spent), or built from
 * the API's own 429/401, or from requests that never reached the API. The chunk processor turns it
 * into a queue-wide pause (docs/architecture.md, decision 1).
 */
export class SellerPausedError extends Error {
  override name = 'SellerPausedError';
  /** The run whose --daily-budget this pause is (`daily-budget`): its cancel lifts it. */
  budgetOf?: string;
  constructor(
    readonly reason: 'daily-limit' | 'daily-budget' | 'unauthorized' | 'unreachable',
    /** When the pause lifts by itself; null for a rejected key, which needs a person. */
    readonly until: number | null,
    message?: string,
  ) {
    super(
      message ??
        (reason === 'unauthorized'
          ? 'the API key was rejected (401)'
          : `${reason === 'daily-budget' ? 'daily budget used up' : 'daily request limit reached'}, paused until ${new Date(until ?? 0).toISOString()}`),
    );
  }
}

/**
 * The daily pause Redis holds (paused-until and its cause, `budget RUN` or `limit`): a run's
 * --daily-budget, else the seller's daily limit.
 */
export function storedDailyPause(until: number, cause: string | null): SellerPausedError {
  const budgetOf = cause?.startsWith('budget ') ? cause.slice('budget '.length) : undefined;
  const pause = new SellerPausedError(budgetOf === undefined ? 'daily-limit' : 'daily-budget', until);
  if (budgetOf !== undefined) pause.budgetOf = budgetOf;
  return pause;
}

/**
 * No request reaches the API (connection refused, DNS, every try timed out): not a data error.
 * The seller pauses and is probed again later; the rows stay queued (`run` exits 6).
 */
export class ApiUnreachableError extends SellerPausedError {
  override name = 'ApiUnreachableError';
  constructor(
    /** The base URL, as the run holds it (never with a key: keys are never in URLs). */
    readonly baseUrl: string,
    /** What failed, in words and code: `connection refused (ECONNREFUSED)`. */
    readonly failure: string,
    until: number,
    message = outOfReachText(baseUrl, failure, false),
  ) {
    super('unreachable', until, message);
  }
}

/**
 * The API's own endpoint answered 404 (EndpointNotFoundError): no Seller API under the base URL, a
 * mistyped path. A configuration error (`run` exits 2), not the rows' failure: the seller pauses as
 * for an API out of reach (nothing more is sent, the rows stay queued, and it is probed again as
 * one), so a wrong base URL costs one request to know, not one per row.
 */
export class NoApiAtBaseUrlError extends ApiUnreachableError {
  override name = 'NoApiAtBaseUrlError';
  constructor(
    baseUrl: string,
    /** The 404 as the client said it: `GET /products: 404 Not Found: no such endpoint…`. */
    failure: string,
    until: number,
  ) {
    super(baseUrl, failure, until, outOfReachText(baseUrl, failure, true));
  }
}

/**
 * What every command (`run`, `ping`, `approve`, `revert`, `resume`), `status`, the dashboard and a
 * webhook say of a seller's API out of reach, in one wording: `noApi`, the base URL answered but
 * with a 404 of the API's own endpoint (the base URL, the 404, and where to look), else what kept
 * the request from it. `failure` is the client's words, as the seller's reach record keeps them.
 */
export function outOfReachText(baseUrl: string, failure: string, noApi: boolean): string {
  return noApi
    ? `no Seller API at ${baseUrl}: ${failure} (check the base URL: --base-url, SELLER_API_BASE_URL or the job's baseUrl)`
    : `cannot reach ${baseUrl}: ${failure}`;
}
