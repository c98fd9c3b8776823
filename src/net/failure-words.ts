import { isTlsCode, tlsHandshakeCause } from './tls-words.js';

/** System and undici codes of a request that never reached the server, in a person's words. */
export const NOT_REACHED: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found (DNS)',
  EAI_AGAIN: 'host name lookup failed (DNS)',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EADDRNOTAVAIL: 'address not available',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
};

/** Codes of a connection that broke once the request was under way. */
const BROKEN: Readonly<Record<string, string>> = {
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed',
  ETIMEDOUT: 'connection timed out',
};

/**
 * A network failure as one short phrase with its code (`connection refused (ECONNREFUSED)`, a failed
 * TLS handshake as tls-words.ts says it), or its code alone when there are no words for it; the
 * message only when there is no code.
 */
export function failureWords(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && code !== '') {
    // `ERR_SSL_WRONG_VERSION_NUMBER` alone does not tell that https:// was typed for an http:// port.
    if (isTlsCode(code)) return tlsHandshakeCause(code, error instanceof Error ? error.message : '');
    const words = NOT_REACHED[code] ?? BROKEN[code];
    return words ? `${words} (${code})` : code;
  }
  return error instanceof Error ? error.message : String(error);
}
