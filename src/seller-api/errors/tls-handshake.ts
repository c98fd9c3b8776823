/**
 * A TLS handshake that failed: the connection was made, TLS was not, so not a byte of the request
 * left. Its causes are the operator's to fix (a URL, a certificate, a CA), not the API's answer:
 * the rows stay queued as when the API is out of reach (sync/unreached.ts), never failed.
 */

/** What http-requester.ts rejects with when an https connection fails between TCP connect and TLS. */
export class TlsHandshakeFailure extends Error {
  override name = 'TlsHandshakeFailure';
  /** The Node error's code (`EPROTO`, `DEPTH_ZERO_SELF_SIGNED_CERT`…), read by from-failure.ts. */
  readonly code: string | undefined;

  constructor(cause: unknown) {
    const error = cause as { message?: unknown; code?: unknown } | null;
    super(typeof error?.message === 'string' ? error.message : 'TLS handshake failed', { cause });
    this.code = typeof error?.code === 'string' ? error.code : undefined;
  }
}

// The words of a failed handshake are net/tls-words.ts's: feeds and stores say the same.
export { isCertificateCode, tlsHandshakeCause } from '../../net/tls-words.js';
