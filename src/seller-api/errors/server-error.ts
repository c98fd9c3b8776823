import { SellerApiError, type SellerApiErrorDetails, statusMessage } from './seller-api-error.js';

/**
 * 5xx, and any status the spec does not list (403, 409, an unexpected redirect…).
 * A 5xx is retryable and, on a write, leaves the outcome unknown: the server may have applied it.
 */
export class ServerError extends SellerApiError {
  override name = 'ServerError';

  constructor(details: SellerApiErrorDetails, statusText = '') {
    const status = details.status ?? 0;
    const retryable = status >= 500 || status === 408;
    super(statusMessage(details, statusText), details, retryable);
  }
}
