import { NetworkError, TimeoutError } from '../seller-api/index.js';

/** System and undici codes of a request that never reached the server, in a person's words. */
const NOT_REACHED: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found (DNS)',
  EAI_AGAIN: 'host name lookup failed (DNS)',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EADDRNOTAVAIL: 'address not available',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
};

/**
 * What kept a request from reaching the API, as one short phrase (`connection refused
 * (ECONNREFUSED)`), or null when it reached it (an answer came, or the connection was made and then
 * reset: that is a failure of the request, retried or failed as before). A read (GET) that timed
 * out with no answer counts as not reached; a write that timed out may have been applied, so not.
 */
export function unreachedCause(error: unknown): string | null {
  if (!(error instanceof NetworkError) || error.status !== null) return null;
  if (error instanceof TimeoutError) {
    return error.method === 'GET' ? `no answer within ${error.timeoutMs} ms (ETIMEDOUT)` : null;
  }
  const words = error.code ? NOT_REACHED[error.code] : undefined;
  return words ? `${words} (${error.code})` : null;
}

/**
 * A connection not made within the connect timeout: that one try took the whole timeout (10 s),
 * in which TCP sent its SYN again by itself.
 */
export function isConnectTimeout(error: unknown): boolean {
  return error instanceof NetworkError && error.status === null && error.code === 'UND_ERR_CONNECT_TIMEOUT';
}
