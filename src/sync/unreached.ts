import { NOT_REACHED } from '../net/failure-words.js';
import { isTlsMisfit as isMisfitCode } from '../net/tls-words.js';
import { NetworkError, TimeoutError, tlsHandshakeCause } from '../seller-api/index.js';

/**
 * What kept a request from reaching the API, as one short phrase (`connection refused
 * (ECONNREFUSED)`), or null when it reached it (an answer came, or the connection was made and then
 * reset: that is a failure of the request, retried or failed as before). A read (GET) that timed
 * out with no answer counts as not reached; a write that timed out may have been applied, so not.
 * A TLS handshake that failed (plain HTTP behind https://, a certificate not trusted or for another
 * host) reached no API either: TLS was never up to carry the request.
 */
export function unreachedCause(error: unknown): string | null {
  if (!(error instanceof NetworkError) || error.status !== null) return null;
  if (error instanceof TimeoutError) {
    return error.method === 'GET' ? `no answer within ${error.timeoutMs} ms (ETIMEDOUT)` : null;
  }
  const words = error.code ? NOT_REACHED[error.code] : undefined;
  if (words) return `${words} (${error.code})`;
  return error.tlsHandshake ? tlsHandshakeCause(error.code, error.reason) : null;
}

/**
 * A handshake that fails on what the server presents (plain HTTP, its certificate): the same on
 * every try, unlike a reset mid-handshake, which may pass.
 */
export function isTlsMisfit(error: unknown): boolean {
  if (!(error instanceof NetworkError) || !error.tlsHandshake) return false;
  return isMisfitCode(error.code, error.reason);
}

/**
 * A connection not made within the connect timeout: that one try took the whole timeout (10 s),
 * in which TCP sent its SYN again by itself.
 */
export function isConnectTimeout(error: unknown): boolean {
  return error instanceof NetworkError && error.status === null && error.code === 'UND_ERR_CONNECT_TIMEOUT';
}
