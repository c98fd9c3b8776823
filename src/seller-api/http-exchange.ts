/**
 * The seam between the Seller API transport and an HTTP client: one request out, its status and
 * headers back, its body read on demand and bounded. Two clients fill it: node:http with a
 * keep-alive agent (http-requester.ts, the default) and an injected `fetch` (fetch-requester.ts).
 */

export interface HttpRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string | undefined;
  /** The whole exchange (connect, headers, body) ends within this, or fails with a TimeoutError. */
  timeoutMs: number;
}

export interface HttpResponse {
  status: number;
  statusText: string;
  /** Lower-cased names; a repeated header's values joined with `, ` (as fetch's Headers do). */
  headers: Record<string, string>;
  /**
   * The body as text (decoded, UTF-8, a leading BOM dropped), or null once it passes `max` bytes:
   * the rest is then not read and the connection is closed.
   */
  readBounded(max: number): Promise<string | null>;
}

/** Rejects with the failure as the client saw it (errors/from-failure.ts reads either kind). */
export type HttpRequester = (request: HttpRequest) => Promise<HttpResponse>;
