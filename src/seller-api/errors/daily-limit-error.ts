import { SellerApiError, type SellerApiErrorDetails, statusMessage } from './seller-api-error.js';

/**
 * 429: the daily request limit is reached (spec section 8). Not retryable by backoff: the caller
 * pauses the seller until `resetAt` (docs/architecture.md, decision 1).
 */
export class DailyLimitError extends SellerApiError {
  override name = 'DailyLimitError';
  readonly resetAt: Date;

  constructor(details: SellerApiErrorDetails, resetAt: Date, statusText = 'Too Many Requests') {
    const reason = [details.reason, `daily limit resets at ${resetAt.toISOString()}`]
      .filter(Boolean)
      .join('; ');
    super(statusMessage({ ...details, reason }, statusText), { ...details, outcomeUnknown: false }, false);
    this.resetAt = resetAt;
  }
}
