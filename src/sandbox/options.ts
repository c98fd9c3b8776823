/** How a 429 tells the client when the daily limit resets (spec section 8: "any rate headers: not shown"). */
export type ResetHeader =
  | 'retry-after'
  | 'ratelimit-reset'
  | 'x-ratelimit-reset'
  | 'x-ratelimit-reset-ms'
  | 'none';

/** The list wrappers a real Seller API might use (spec 4.1 rule 3 and 4: "not shown"). */
export type ListShape = 'bare' | 'page-meta' | 'next-url' | 'link-header';

export const RESET_HEADERS: readonly ResetHeader[] = [
  'retry-after',
  'ratelimit-reset',
  'x-ratelimit-reset',
  'x-ratelimit-reset-ms',
  'none',
];
export const LIST_SHAPES: readonly ListShape[] = ['bare', 'page-meta', 'next-url', 'link-header'];

export interface SandboxKey {
  key: string;
  seller: string;
}

export interface SandboxOptions {
  /** Loopback only: 127.0.0.1 (default), ::1 or localhost. */
  host?: string;
  /** 0 (default) takes any free port. */
  port?: number;
  /** Default: one generated pair, returned as `defaultKey`. */
  keys?: SandboxKey[];
  /** Requests per key per day; null (default) = unlimited. 429s and 401s do not count. */
  dailyLimit?: number | null;
  /** Default one day. Days are aligned to the Unix epoch, so with 24h the limit resets at 00:00 UTC. */
  dayLengthMs?: number;
  /** Default 'retry-after' (seconds until the day turns). */
  resetHeader?: ResetHeader;
  /**
   * Default true: every answer says the limit and what is left of it (X-RateLimit-Limit and
   * -Remaining). False: an API that shows neither (spec section 8), whose limit a client must learn.
   */
  limitHeaders?: boolean;
  /** Added to every answer of the API (not of the `/__sandbox` seam). */
  latencyMs?: number;
  /** 0..1: answer 500 instead of serving; nothing is applied. */
  failRate?: number;
  /** 0..1, writes only: apply the create or update, then destroy the socket without answering. */
  dropResponseRate?: number;
  /** When set, a body with any other product field answers 400 (spec 2.1). `id` is never accepted. */
  acceptFields?: string[] | null;
  /** Fields stored but never echoed, e.g. 'sku' for an API that does not echo the match field back. */
  hideFields?: string[];
  /**
   * Default false. When true the API keeps its own form of what a create or update sends, and shows
   * that form: name trimmed and spaces collapsed, price rounded to cents, tags as `[{name}]` (normalize.ts).
   */
  normalize?: boolean;
  /** When set, the only fields a PUT takes (POST is unaffected); any other answers 400, nothing applied. */
  updateFields?: string[] | null;
  /** Fields a PUT leaves as they were: it answers 200, applies the others, shows the old values. */
  ignoreOnUpdate?: string[];
  /** Default 'page-meta'. */
  listShape?: ListShape;
  /** Default 100; 'bare' answers one page with everything. */
  pageSize?: number;
  /** Default 201. */
  createStatus?: 200 | 201;
  /** Default true; false answers a create with an empty body and a Location header. */
  createBody?: boolean;
  /** Orders seeded for each seller when it first appears; default 3. */
  ordersPerSeller?: number;
  /** Epoch milliseconds; default Date.now. */
  now?: () => number;
  /** In [0, 1); decides the injected faults. Default Math.random. */
  random?: () => number;
  /**
   * In-process only, for tests: an API request for which it returns a promise waits for it (after
   * `latencyMs`) before it is served. One run's writes held until another's have happened, say.
   */
  hold?: (request: HeldRequest) => Promise<unknown> | undefined;
}

/** What `hold` is asked about: the request as it came (its path below /api/v1, its raw body). */
export interface HeldRequest {
  method: string;
  path: string;
  body: string | null;
}

/** The faults that can change while the sandbox runs (`setFaults`, `POST /__sandbox/faults`). */
export type SandboxFaults = Pick<
  SandboxOptions,
  'latencyMs' | 'failRate' | 'dropResponseRate' | 'dailyLimit'
>;

export const DAY_MS = 86_400_000;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host);
}

export { parseDuration } from '../duration.js';

/** Checks the faults a caller may change at run time; returns a one-line problem or null. */
export function faultsProblem(faults: Partial<SandboxFaults>): string | null {
  for (const name of ['failRate', 'dropResponseRate'] as const) {
    const rate = faults[name];
    if (rate !== undefined && !(typeof rate === 'number' && rate >= 0 && rate <= 1)) {
      return `${name} must be a number from 0 to 1`;
    }
  }
  const { latencyMs, dailyLimit } = faults;
  if (latencyMs !== undefined && !(Number.isInteger(latencyMs) && latencyMs >= 0)) {
    return 'latencyMs must be a non-negative integer';
  }
  if (dailyLimit !== undefined && dailyLimit !== null && !(Number.isInteger(dailyLimit) && dailyLimit >= 0)) {
    return 'dailyLimit must be a non-negative integer or null';
  }
  return null;
}
