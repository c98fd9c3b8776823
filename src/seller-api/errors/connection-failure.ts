/**
 * What http-requester.ts rejects with when a request fails before its answer: whether its
 * connection had been made. Before it was (a refused connect, a failed lookup, no route), not a
 * byte of the request left, whatever the code says; once it was, the request may have been
 * written and applied, even when the code is one a connect gives too (EHOSTUNREACH on an
 * established connection: the host went out of reach after the write).
 */
export class ConnectionFailure extends Error {
  override name = 'ConnectionFailure';
  /** The Node error's code (`ECONNREFUSED`, `ECONNRESET`…), read by from-failure.ts. */
  readonly code: string | undefined;

  constructor(
    cause: unknown,
    /** The TCP connection (and TLS, for https) was up: a pooled socket, or one that connected. */
    readonly connected: boolean,
  ) {
    const error = cause as { message?: unknown; code?: unknown } | null;
    super(typeof error?.message === 'string' ? error.message : 'connection failed', { cause });
    this.code = typeof error?.code === 'string' ? error.code : undefined;
  }
}
