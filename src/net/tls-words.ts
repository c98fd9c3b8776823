/**
 * A failed TLS handshake in words, the one place for them: the Seller API's (sync/unreached.ts),
 * a feed's and a store's (failure-words.ts) say the same. Its causes are the operator's to fix (a
 * URL, a certificate, a CA), and what the server presents fails the same way on every try.
 */

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

/** OpenSSL's code of a plain HTTP answer to the TLS hello (an HTTP status line read as a record). */
const PLAIN_HTTP = 'ERR_SSL_WRONG_VERSION_NUMBER';

/** True for a code that only a failed certificate check gives. */
export function isCertificateCode(code: string | null): boolean {
  return code !== null && (UNTRUSTED.has(code) || code in CERTIFICATE);
}

/** True for a code only a TLS handshake gives: OpenSSL's `ERR_SSL_…`, Node's `ERR_TLS_…`, a certificate's. */
export function isTlsCode(code: string | null): boolean {
  return code !== null && (/^ERR_(SSL|TLS)_/.test(code) || isCertificateCode(code));
}

/**
 * A handshake that fails on what the server presents (plain HTTP, its certificate): the same on
 * every try, unlike a reset mid-handshake, which may pass.
 */
export function isTlsMisfit(code: string | null, reason: string): boolean {
  return isCertificateCode(code) || code === PLAIN_HTTP || /wrong version number/i.test(reason);
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
  if (code === PLAIN_HTTP || /wrong version number/i.test(reason))
    return coded('the server answered in plain HTTP, not TLS (https:// to an http:// port)');
  return coded(openSslWords(reason));
}

/** `…:SSL routines:ssl3_read_bytes:sslv3 alert handshake failure:…` → `sslv3 alert handshake failure`. */
function openSslWords(reason: string): string {
  const routine = /SSL routines:[^:]*:([^:]+)/.exec(reason);
  const words = routine?.[1] ?? reason.replace(/\s*\([A-Z0-9_]+\)$/, '');
  return words.trim().slice(0, 120) || 'no reason given';
}
