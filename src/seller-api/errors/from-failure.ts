import { ConnectionFailure } from './connection-failure.js';
import { NetworkError } from './network-error.js';
import { oneLine } from './one-line.js';
import { redact } from './redact-key.js';
import { TimeoutError } from './timeout-error.js';
import { isCertificateCode, TlsHandshakeFailure } from './tls-handshake.js';

export interface FailureContext {
  method: string;
  path: string;
  /** The status, when the headers had arrived before the body failed. */
  status: number | null;
  headers?: Record<string, string>;
  timeoutMs: number;
  /** The API key, removed from anything a failure message might echo. */
  secret?: string;
}

/**
 * Codes of failures that happen before a byte of the request reached the server, when the
 * requester does not say whether its connection was made (an injected fetch: undici gives them
 * for its connect only).
 */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'ERR_INVALID_URL',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * What a rejected `fetch` (or body read) means. A write's outcome is unknown unless the failure
 * surely came before sending (connection refused, DNS): a reset or a timeout may follow a write
 * the server applied (docs/architecture.md, decision 4).
 */
export function errorFromFailure(error: unknown, context: FailureContext): NetworkError {
  const isWrite = WRITE_METHODS.has(context.method);
  const base = {
    method: context.method,
    path: redact(context.path, context.secret),
    status: context.status,
    headers: context.headers ?? {},
    cause: error,
  };
  if (isTimeout(error)) {
    return new TimeoutError({ ...base, outcomeUnknown: isWrite }, context.timeoutMs);
  }
  const code = failureCode(error);
  const reason = oneLine(redact(failureText(error), context.secret));
  // A handshake that failed sent nothing of the request: TLS was never up to carry it.
  const tlsHandshake =
    chain(error).some((link) => link instanceof TlsHandshakeFailure) || isCertificateCode(code);
  const notSent = context.status === null && (tlsHandshake || connectFailed(error, code));
  const outcomeUnknown = isWrite && !notSent;
  return new NetworkError({
    ...base,
    code,
    reason: code ? `${reason} (${code})` : reason,
    outcomeUnknown,
    tlsHandshake,
    notSent,
  });
}

/**
 * The connection was never made. The node:http requester says whether it was (connection-failure.ts):
 * a code alone does not, as EHOSTUNREACH or ENETUNREACH may end a connection the request was written
 * on. When in doubt, sent: a request counted that never left costs a request of the day; one not
 * counted that reached the API may cost a 429, or a create looked for.
 */
function connectFailed(error: unknown, code: string | null): boolean {
  const said = chain(error).find((link) => link instanceof ConnectionFailure);
  if (said) return !said.connected;
  return code !== null && NOT_SENT_CODES.has(code);
}

function isTimeout(error: unknown): boolean {
  return chain(error).some(
    (link) =>
      link instanceof Error && (link.name === 'TimeoutError' || (link as { code?: unknown }).code === 23),
  );
}

function failureCode(error: unknown): string | null {
  for (const link of chain(error)) {
    const code = (link as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && code !== '') return code;
  }
  return null;
}

/** The innermost message says the most (`connect ECONNREFUSED 127.0.0.1:1` rather than `fetch failed`). */
function failureText(error: unknown): string {
  const messages = chain(error)
    .map((link) => (link instanceof Error ? link.message : String(link)))
    .filter((message) => message !== '');
  return messages.at(-1) ?? 'connection failed';
}

function chain(error: unknown): unknown[] {
  const links: unknown[] = [];
  let link: unknown = error;
  while (link !== undefined && link !== null && links.length < 10 && !links.includes(link)) {
    links.push(link);
    link = (link as { cause?: unknown }).cause;
  }
  return links;
}
