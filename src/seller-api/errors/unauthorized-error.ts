import { SellerApiError, type SellerApiErrorDetails, statusMessage } from './seller-api-error.js';

/** 401: the key is missing, invalid or revoked (spec section 5). Needs a person, not a retry. */
export class UnauthorizedError extends SellerApiError {
  override name = 'UnauthorizedError';

  constructor(details: SellerApiErrorDetails, statusText = 'Unauthorized') {
    super(statusMessage(details, statusText), { ...details, outcomeUnknown: false }, false);
  }
}
