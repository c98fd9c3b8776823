import { SellerApiError, type SellerApiErrorDetails } from './seller-api-error.js';

/**
 * No (complete) answer: connection refused or reset, DNS failure, socket closed mid-body.
 * `code` is the system or undici code (`ECONNREFUSED`, `UND_ERR_SOCKET`…) when one is known.
 */
export class NetworkError extends SellerApiError {
  override name = 'NetworkError';
  readonly code: string | null;
  /** The connection was made and its TLS handshake failed (tls-handshake.ts): nothing was sent. */
  readonly tlsHandshake: boolean;
  /**
   * The request provably never reached the API: its connection (or TLS) was never up. The API
   * neither applied nor counted it, so it is no request of the seller's day (sync counts it
   * nowhere). False whenever it may have reached it (a reset after writing, a timeout).
   */
  readonly notSent: boolean;

  constructor(
    details: SellerApiErrorDetails & { code?: string | null; tlsHandshake?: boolean; notSent?: boolean },
    what = 'network error',
  ) {
    const code = details.code ?? null;
    const reason = details.reason ? `: ${details.reason}` : '';
    super(`${details.method} ${details.path}: ${what}${reason}`, details, true);
    this.code = code;
    this.tlsHandshake = details.tlsHandshake ?? false;
    this.notSent = details.notSent ?? false;
  }
}
