import { NetworkError } from './network-error.js';
import type { SellerApiErrorDetails } from './seller-api-error.js';

/** No complete answer within the client's `timeoutMs`. A write may have been applied. */
export class TimeoutError extends NetworkError {
  override name = 'TimeoutError';
  readonly timeoutMs: number;

  constructor(details: SellerApiErrorDetails, timeoutMs: number) {
    super({ ...details, code: 'ETIMEDOUT', reason: '' }, `no complete answer within ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}
