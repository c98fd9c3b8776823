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

/** Codes of a connection the server closed (reset, hang-up, a write on a closed socket). */
const CLOSED = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/**
 * The server took the connection and closed it before a byte of an answer (`socket hang up`,
 * ECONNRESET, EPIPE), or what came back was a TLS record, not HTTP (http:// to a TLS port), as one
 * phrase; null for anything else. Unlike unreachedCause's failures the request may have reached the
 * API (it still counts as possibly sent, from-failure.ts): a reset of one try is a failure of the
 * request, retried as any other; only when every try of a request ended so (outOfReachCause) is the
 * API said to be out of reach. `baseUrl` for the hint that http:// meant https://.
 */
export function unansweredCause(error: unknown, baseUrl: string): string | null {
  if (!(error instanceof NetworkError) || error.status !== null || error instanceof TimeoutError) return null;
  if (error.tlsHandshake || unreachedCause(error) !== null) return null;
  const code = error.code ? ` (${error.code})` : '';
  if (answeredInTls(error)) {
    return `the server closed the connection without an HTTP answer: it answered in TLS, not plain HTTP (http:// to an https:// port: use https://)${code}`;
  }
  if (error.code === null || !CLOSED.has(error.code)) return null;
  const url = URL.canParse(baseUrl) ? new URL(baseUrl) : null;
  // Nothing came back to tell TLS by (Node's TLS server closes without an alert): the port may.
  const hint =
    url?.protocol === 'http:' && url.port === '443' ? '; port 443 is the usual TLS port: use https://' : '';
  return `the server closed the connection without answering${code}${hint}`;
}

/**
 * What kept a request from the API once its tries are used up (`tries`: each try's failure, the
 * last one last), or null when the API answered. A last try that never reached it says so, as
 * before; otherwise the API is out of reach only when no try got an answer at all.
 */
export function outOfReachCause(tries: readonly unknown[], baseUrl: string): string | null {
  const last = tries.at(-1);
  const never = unreachedCause(last);
  if (never !== null) return never;
  const noAnswer = (error: unknown) =>
    unreachedCause(error) !== null || unansweredCause(error, baseUrl) !== null;
  return tries.length > 0 && tries.every(noAnswer) ? unansweredCause(last, baseUrl) : null;
}

/**
 * The HTTP parser met a TLS record where a status line should be (a handshake or alert record:
 * content type 0x15 or 0x16, then version 3.x): a TLS server answering plain HTTP.
 */
function answeredInTls(error: NetworkError): boolean {
  if (!error.code?.startsWith('HPE_')) return false;
  for (let link: unknown = error; link; link = (link as { cause?: unknown }).cause) {
    const raw = (link as { rawPacket?: unknown }).rawPacket;
    if (Buffer.isBuffer(raw))
      return raw.length >= 2 && (raw[0] === 0x15 || raw[0] === 0x16) && raw[1] === 0x03;
  }
  return false;
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
