import { InvalidResponseError } from './invalid-response-error.js';
import type { SellerApiErrorDetails } from './seller-api-error.js';

/**
 * The API's answers passed a cap of answer-caps.ts (an answer's bytes; a list read's pages, bytes,
 * records or fields). Not tried again (the same answers would come back): the command ends with one
 * line and exit 2, as for a setting that cannot work.
 */
export class AnswerCapError extends InvalidResponseError {
  override name = 'AnswerCapError';

  constructor(details: SellerApiErrorDetails & { reason: string }) {
    super(details, false);
  }
}
