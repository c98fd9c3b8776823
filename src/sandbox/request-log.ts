/** One request the API served (the `/__sandbox` seam is never logged). */
export interface LoggedRequest {
  method: string;
  /** Relative to /api/v1, without the query: '/products'. */
  path: string;
  query: Record<string, string>;
  /** The body parsed as JSON; the raw text when it is not JSON; undefined when empty or too large. */
  body: unknown;
  /** The answer's status; 'dropped' when the response was destroyed on purpose. */
  status: number | 'dropped';
  /** The seller behind a valid key. */
  seller?: string;
}

/** A logged request with the instant the sandbox answered it (epoch ms, on the sandbox's clock). */
export interface TimedRequest extends LoggedRequest {
  at: number;
}

/**
 * Enough entries for any integration test; a benchmark's millions of requests keep only the latest,
 * so a long-running sandbox holds bounded memory.
 */
export const REQUEST_LOG_LIMIT = 10_000;

/** The requests the API served, oldest first, so tests can assert what a client sent (e.g. PUT bodies). */
export class RequestLog {
  #entries: TimedRequest[] = [];

  constructor(private readonly limit = REQUEST_LOG_LIMIT) {}

  record(entry: Omit<TimedRequest, 'body'> & { body: string | null }): void {
    const { body, seller, ...rest } = entry;
    const logged: TimedRequest = { ...rest, body: parsedBody(body) };
    if (seller !== undefined) logged.seller = seller;
    this.#entries.push(logged);
    if (this.#entries.length > this.limit) this.#entries.splice(0, this.#entries.length - this.limit);
  }

  /** Without the instants: what most tests compare whole. */
  snapshot(): LoggedRequest[] {
    return structuredClone(this.#entries.map(({ at: _at, ...request }) => request));
  }

  timed(): TimedRequest[] {
    return structuredClone(this.#entries);
  }

  clear(): void {
    this.#entries = [];
  }
}

function parsedBody(body: string | null): unknown {
  if (body === null || body === '') return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}
