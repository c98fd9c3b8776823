import { UNTIMED_PAUSE_MS } from '../defaults.js';
import { faultOf } from '../redis/health.js';
import { redactHeld } from '../secret-forms.js';
import {
  DailyLimitError,
  EndpointNotFoundError,
  type GetRetry,
  InvalidRequestError,
  InvalidResponseError,
  NotFoundError,
  type RetryPolicy,
  SellerApiError,
  UnauthorizedError,
} from '../seller-api/index.js';
import { ChunkLockLostError } from './chunk-lock-lost.js';
import { KeyChangedError } from './key-changed.js';
import { ApiUnreachableError, NoApiAtBaseUrlError, SellerPausedError } from './seller-pause.js';
import { SendingStoppedError } from './sending-stopped.js';
import { isConnectTimeout, isTlsMisfit, outOfReachCause, unreachedCause } from './unreached.js';

/**
 * What the worker does about an error, as one table (docs/architecture.md, decision 5):
 * - `fail-row`: the row fails with the reason; no retry (400, or retries used up). For a read, the
 *   read fails, and with it what needed it (a failed product list fails the run's rows).
 * - `stop`: Redis refused a write (full, read-only) or lost the run's state: nothing more is sent
 *   and nothing is recorded as the row's outcome; the row stays queued for a run after the fault.
 *   So too when the run's key changed in a keys file: the chunk is taken again with the new key.
 * - `pause-seller`: the seller's queue stops (429, budget, 401); the row stays queued.
 * - `recreate`: a PUT answered 404: the product is gone or not ours; create once. Its mapping goes
 *   only with the create's answer (row-sync.ts): a base URL with no API answers the PUT with 404 too.
 * - `look-first`: a POST whose outcome is unknown: look for the product before sending it again.
 * - `retry`: back off and try the same request again, a bounded number of times, in one layer
 *   only: the client for reads (GET), row sync for writes (POST, PUT). What happens once the tries
 *   are used up, `afterTries` says: the row fails, or, when no try reached the API, the seller pauses.
 */
export type ErrorAction = 'fail-row' | 'stop' | 'pause-seller' | 'recreate' | 'look-first' | 'retry';

/** The request that failed: a list page or a single GET, a POST of a new product, a PUT of changes. */
export type FailedRequest = 'read' | 'create' | 'update';

interface PolicyRow {
  matches: (error: unknown) => boolean;
  /** A request that has no column here is decided by a later row. */
  actions: Partial<Record<FailedRequest, ErrorAction>>;
}

const everywhere = (action: ErrorAction) => ({ read: action, create: action, update: action });

/** The first row that matches and has a column for the request decides; no row: `fail-row`. */
const POLICY: readonly PolicyRow[] = [
  {
    // Redis refused a write for memory or as a replica, or the run's record is gone (issue 18, issue
    // 10): what the request would change could not be recorded, so it is not sent, nor any other.
    matches: (error) => faultOf(error) !== null,
    actions: everywhere('stop'),
  },
  {
    // The run's key changed in the keys file before the request left: not sent, and the row stays
    // queued for the chunk taken again with the key as it is now.
    matches: (error) => error instanceof KeyChangedError,
    actions: everywhere('stop'),
  },
  {
    // The command serving the run here was interrupted: not sent; the row stays queued.
    matches: (error) => error instanceof SendingStoppedError,
    actions: everywhere('stop'),
  },
  {
    // The worker lost its lock on the chunk: another holds it, or is about to, and sends its rows.
    matches: (error) => error instanceof ChunkLockLostError,
    actions: everywhere('stop'),
  },
  {
    // The seller must stop: a 429, the daily budget used up, a rejected key (401).
    matches: (error) => pauseOf(error) !== null,
    actions: everywhere('pause-seller'),
  },
  {
    // The API refused the request itself (400, 422): sending it again changes nothing.
    matches: (error) => error instanceof InvalidRequestError,
    actions: everywhere('fail-row'),
  },
  {
    // No such product (404): for a PUT it is gone or not ours.
    matches: (error) => error instanceof NotFoundError,
    actions: { read: 'fail-row', create: 'fail-row', update: 'recreate' },
  },
  {
    // The API was never reached (refused, DNS, a read with no answer in time): nothing was applied.
    // Tried again like any passing failure; when every try failed so, `afterTries` pauses the seller.
    matches: (error) => unreachedCause(error) !== null,
    actions: everywhere('retry'),
  },
  {
    // A create that may have been applied (5xx, timeout or reset after sending): look before sending
    // again. One answered 2xx with a body we cannot read was applied: sending it again would duplicate.
    matches: (error) =>
      error instanceof SellerApiError &&
      (error.outcomeUnknown ||
        (error instanceof InvalidResponseError && error.status !== null && error.status < 300)),
    actions: { create: 'look-first' },
  },
  {
    // A failure that may pass (5xx, 408, network, timeout, a truncated body).
    matches: (error) => error instanceof SellerApiError && error.retryable,
    actions: everywhere('retry'),
  },
];

export function errorAction(error: unknown, request: FailedRequest): ErrorAction {
  for (const row of POLICY) {
    const action = row.actions[request];
    if (action && row.matches(error)) return action;
  }
  return 'fail-row';
}

/**
 * What a retry layer throws once an error it retried used up its tries (`tries`: each try's
 * failure, `error` last): for a request that never reached the API, or whose every try the server
 * closed without answering, the pause that says so (the API is out of reach: the rows stay queued,
 * `run` exits 6); for any other, the error itself (the row or the read fails as before).
 */
export function afterTries(
  error: unknown,
  baseUrl: string,
  until: number,
  tries: readonly unknown[] = [error],
): unknown {
  const cause = outOfReachCause(tries, baseUrl);
  return cause === null ? error : new ApiUnreachableError(baseUrl, cause, until);
}

/**
 * The client's retry decision for a GET (its `retry.retryable`): the table's, so that the client
 * and the worker never disagree about what is worth another try.
 */
export function isRetryableRead(error: unknown): boolean {
  return errorAction(error, 'read') === 'retry';
}

/**
 * The retries a failure the table retries is worth, at most the policy's. A connection not made
 * within the connect timeout is not tried again: that try alone took the timeout (10 s), so the API
 * is said to be out of reach in ~10 s (issue 11), where five tries took ~50 s. A refusal or a DNS
 * failure is told at once: all of its tries fit in ~8 s. A handshake refused for what the server
 * presents (plain HTTP, its certificate) fails the same way every time: told after the first.
 */
export function retriesFor(error: unknown, policy: RetryPolicy): number {
  return isConnectTimeout(error) || isTlsMisfit(error) ? 0 : policy.retries;
}

/** How the client tries a GET again, by this table: what is retried, how often, what then. */
export function readRetry(
  policy: RetryPolicy,
  afterTriesOf?: (error: unknown, tries: readonly unknown[]) => unknown,
): GetRetry {
  return {
    policy,
    retryable: isRetryableRead,
    retries: (error) => retriesFor(error, policy),
    ...(afterTriesOf ? { afterTries: afterTriesOf } : {}),
  };
}

/**
 * Whether an error that reached the worker fails for good what needed the request: an answer of
 * the API (or of the network) that the request's one retry layer (the client for a read, row sync
 * for a write) already gave up on, and no pause. Anything else (Redis, a crash) is the job's to try
 * again: BullMQ's attempts re-run the chunk, never a request that already had its tries.
 */
export function failsForGood(error: unknown): boolean {
  return error instanceof SellerApiError && pauseOf(error) === null;
}

/**
 * The pause an error means, or null: the one place that says which errors stop a seller, and until
 * when. A 429 lifts at its reset instant; a rejected key needs a person (`until` null); a base URL
 * with no API under it is probed again as an API out of reach.
 */
export function pauseOf(error: unknown): SellerPausedError | null {
  if (error instanceof SellerPausedError) return error;
  if (error instanceof DailyLimitError) return new SellerPausedError('daily-limit', error.resetAt.getTime());
  if (error instanceof UnauthorizedError) return new SellerPausedError('unauthorized', null);
  // The API's own endpoint answered 404: no API under the base URL. Every row would answer so.
  if (error instanceof EndpointNotFoundError)
    return new NoApiAtBaseUrlError(error.baseUrl, error.message, Date.now() + UNTIMED_PAUSE_MS);
  return null;
}

/**
 * A one-line reason for the report, whatever was thrown: cut of every secret the process holds
 * (secret-forms.ts) before it is kept anywhere, whichever client's (or store's) words it quotes.
 */
export function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return redactHeld(text.replace(/\s+/g, ' ').trim()).slice(0, 500);
}
