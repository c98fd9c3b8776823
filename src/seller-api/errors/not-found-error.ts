import { SellerApiError, type SellerApiErrorDetails, statusMessage } from './seller-api-error.js';

/** 404: absent, or another seller's; the two cannot be told apart (spec section 2.3). */
export class NotFoundError extends SellerApiError {
  override name = 'NotFoundError';

  constructor(details: SellerApiErrorDetails, statusText = 'Not Found') {
    super(statusMessage(details, statusText), { ...details, outcomeUnknown: false }, false);
  }
}
