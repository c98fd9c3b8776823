import { SellerApiError, type SellerApiErrorDetails, statusMessage } from './seller-api-error.js';

/** 400 (and 422): the JSON or the data was refused; `reason` says why. Never retried: the row fails. */
export class InvalidRequestError extends SellerApiError {
  override name = 'InvalidRequestError';

  constructor(details: SellerApiErrorDetails, statusText = 'Bad Request') {
    super(statusMessage(details, statusText), { ...details, outcomeUnknown: false }, false);
  }
}
