import { SellerApiError, type SellerApiErrorDetails } from './seller-api-error.js';

/**
 * A success status whose body is not what we need (broken JSON, a list without items, an item
 * without an id, a next page on another origin…). Broken JSON is retryable (a truncated body is
 * often transient); a well-formed answer of the wrong shape is not (the same answer would come back).
 */
export class InvalidResponseError extends SellerApiError {
  override name = 'InvalidResponseError';

  constructor(details: SellerApiErrorDetails & { reason: string }, retryable = true) {
    const status = details.status === null ? '' : `${details.status} `;
    super(
      `${details.method} ${details.path}: ${status}invalid response: ${details.reason}`,
      { ...details, outcomeUnknown: false },
      retryable,
    );
  }
}
