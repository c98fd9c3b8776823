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

  constructor(
    details: SellerApiErrorDetails & { code?: string | null; tlsHandshake?: boolean },
    what = 'network error',
  ) {
    const code = details.code ?? null;
    const reason = details.reason ? `: ${details.reason}` : '';
    super(`${details.method} ${details.path}: ${what}${reason}`, details, true);
    this.code = code;
    this.tlsHandshake = details.tlsHandshake ?? false;
  }
}
