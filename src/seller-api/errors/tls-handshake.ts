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

/** OpenSSL's verdicts on a certificate chain this machine does not trust (Node uses them as codes). */
const UNTRUSTED = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_REVOKED',
  'INVALID_CA',
]);

/** Certificate causes by code: they come only from a handshake, whichever client saw them. */
const CERTIFICATE: Record<string, string> = {
  ERR_TLS_CERT_ALTNAME_INVALID: "the server's certificate is for another host",
  CERT_HAS_EXPIRED: "the server's certificate has expired",
  CERT_NOT_YET_VALID: "the server's certificate is not valid yet",
};

/** True for a code that only a failed certificate check gives. */
export function isCertificateCode(code: string | null): boolean {
  return code !== null && (UNTRUSTED.has(code) || code in CERTIFICATE);
}

/**
 * The cause of a failed handshake in words, with its code: what the operator can act on, rather
 * than OpenSSL's text (`ssl3_get_record:wrong version number`).
 */
export function tlsHandshakeCause(code: string | null, reason: string): string {
  const coded = (words: string) => `TLS handshake failed: ${words}${code ? ` (${code})` : ''}`;
  if (code !== null && UNTRUSTED.has(code))
    return coded(
      "the server's certificate is not trusted: self-signed, or from a CA this machine does not know (a private CA: NODE_EXTRA_CA_CERTS=ca.pem)",
    );
  const certificate = code === null ? undefined : CERTIFICATE[code];
  if (certificate) return coded(certificate);
  // A plain HTTP server answers the TLS hello with an HTTP status line, which OpenSSL reads as a record.
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || /wrong version number/i.test(reason))
    return coded('the server answered in plain HTTP, not TLS (https:// to an http:// port)');
  return coded(openSslWords(reason));
}

/** `…:SSL routines:ssl3_read_bytes:sslv3 alert handshake failure:…` → `sslv3 alert handshake failure`. */
function openSslWords(reason: string): string {
  const routine = /SSL routines:[^:]*:([^:]+)/.exec(reason);
  const words = routine?.[1] ?? reason.replace(/\s*\([A-Z0-9_]+\)$/, '');
  return words.trim().slice(0, 120) || 'no reason given';
}
