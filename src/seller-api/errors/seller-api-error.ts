/** What every Seller API error knows about the request and the answer (if any) that caused it. */
export interface SellerApiErrorDetails {
  method: string;
  /** The path after the base URL, with its query (`/products?id=7`): safe to show, never the key. */
  path: string;
  /** The HTTP status, or null when no answer came (network failure, timeout). */
  status: number | null;
  /** Response headers, lower-cased names. Empty when no answer came. */
  headers?: Record<string, string>;
  /** The response body as text (truncated for very large bodies). Empty when none. */
  body?: string;
  /** One line: the API's reason, or what went wrong. May be empty. */
  reason?: string;
  /** True when a write may have been applied although no success came back. */
  outcomeUnknown?: boolean;
  cause?: unknown;
}

/**
 * The base of the client's error vocabulary (errors are a vocabulary, not messages): the pipeline
 * decides what to do from the subclass, `retryable` and `outcomeUnknown`, never from the message.
 */
export class SellerApiError extends Error {
  override name = 'SellerApiError';
  readonly method: string;
  readonly path: string;
  readonly status: number | null;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly reason: string;
  /** Trying the same request again later may succeed. */
  readonly retryable: boolean;
  /**
   * A write (POST/PUT) may have been applied although we got no success: a timeout or a dropped
   * connection after sending, or a 5xx. The caller must look before writing again (docs/architecture.md,
   * decision 4: no duplicate creates).
   */
  readonly outcomeUnknown: boolean;

  constructor(message: string, details: SellerApiErrorDetails, retryable: boolean) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.method = details.method;
    this.path = details.path;
    this.status = details.status;
    this.headers = details.headers ?? {};
    this.body = details.body ?? '';
    this.reason = details.reason ?? '';
    this.retryable = retryable;
    this.outcomeUnknown = details.outcomeUnknown ?? false;
  }
}

/** `PUT /products?id=7: 400 Bad Request: price must be a number` */
export function statusMessage(details: SellerApiErrorDetails, statusText: string): string {
  const head = `${details.method} ${details.path}: ${details.status ?? 'no answer'} ${statusText}`.trimEnd();
  return details.reason ? `${head}: ${details.reason}` : head;
}
