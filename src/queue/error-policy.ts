import {
  DailyLimitError,
  InvalidRequestError,
  InvalidResponseError,
  NotFoundError,
  SellerApiError,
  UnauthorizedError,
} from '../seller-api/index.js';
import { SellerPausedError } from './seller-pause.js';

/**
 * What the worker does about an error, as one table (ARCHITECTURE.md, decision 5):
 * - `fail-row`: the row fails with the reason; no retry (400, or retries used up).
 * - `pause-seller`: the seller's queue stops (429, budget, 401); the row stays queued.
 * - `recreate`: a PUT answered 404: the product is gone or not ours; forget the mapping, create once.
 * - `look-first`: a POST whose outcome is unknown: look for the product before sending it again.
 * - `retry`: back off and try again, a bounded number of times.
 */
export type ErrorAction = 'fail-row' | 'pause-seller' | 'recreate' | 'look-first' | 'retry';

export function errorAction(error: unknown, request: 'create' | 'update'): ErrorAction {
  if (
    error instanceof SellerPausedError ||
    error instanceof DailyLimitError ||
    error instanceof UnauthorizedError
  ) {
    return 'pause-seller';
  }
  if (error instanceof InvalidRequestError) return 'fail-row';
  if (error instanceof NotFoundError) return request === 'update' ? 'recreate' : 'fail-row';
  if (error instanceof SellerApiError) {
    // A create answered 2xx with a body we cannot read was applied: sending it again would duplicate.
    const appliedButUnread =
      error instanceof InvalidResponseError && error.status !== null && error.status < 300;
    if (request === 'create' && (error.outcomeUnknown || appliedButUnread)) return 'look-first';
    return error.retryable ? 'retry' : 'fail-row';
  }
  return 'fail-row';
}

/** A one-line reason for the report, whatever was thrown. */
export function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, ' ').trim().slice(0, 500);
}
