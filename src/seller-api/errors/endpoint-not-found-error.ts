import { NotFoundError } from './not-found-error.js';
import type { SellerApiErrorDetails } from './seller-api-error.js';

/**
 * 404 on an address that names no product or order (`GET /ping`, `GET /products`, `POST
 * /products`): the API's own endpoint is not there, so no Seller API answers under the base URL (a
 * mistyped path). Unlike a 404 for one id (a deleted product: the row's matter), a configuration
 * error: `ping` and `run` say it in one line (exit 2), and a run sends nothing more.
 */
export class EndpointNotFoundError extends NotFoundError {
  override name = 'EndpointNotFoundError';

  constructor(
    details: SellerApiErrorDetails,
    statusText: string,
    /** The base URL the request went under, as the client was given it. */
    readonly baseUrl: string,
  ) {
    super(details, statusText);
  }
}

/** Whether a 404's address (its path after the base URL, with its query) names no one record. */
export function namesNoRecord(path: string): boolean {
  return !path.includes('?');
}
