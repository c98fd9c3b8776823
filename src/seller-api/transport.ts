import { ANSWER_CAPS } from '../defaults.js';
import type { Logger } from '../logger.js';
import { formatBytes } from '../sources/limits.js';
import { displayPath } from './base-url.js';
import { AnswerCapError } from './errors/answer-cap-error.js';
import { errorFromFailure } from './errors/from-failure.js';
import { InvalidResponseError } from './errors/invalid-response-error.js';
import { NetworkError } from './errors/network-error.js';
import type { SellerApiError } from './errors/seller-api-error.js';
import type { HttpRequester } from './http-exchange.js';
import { USER_AGENT } from './user-agent.js';

/** One answer, whatever its status, with its body read whole. */
export interface Answer {
  method: string;
  url: URL;
  /** For messages and logs: the path after the base URL, with its query. */
  path: string;
  status: number;
  statusText: string;
  /** Lower-cased names. */
  headers: Record<string, string>;
  text: string;
}

export interface RequestEvent {
  method: string;
  path: string;
  status: number | null;
  ms: number;
  /** Response headers (lower-cased names); empty when no answer came. */
  headers: Record<string, string>;
  /**
   * The error the request ends in (what its status means, or the network failure), or null.
   * Reported inside the scheduler's slot, before the next request may leave: a hook that pauses
   * on a 429 or a 401 stops the requests still waiting (issue 5).
   */
  error: SellerApiError | null;
  /**
   * The request provably never reached the API (its connection was never made: NetworkError's
   * `notSent`): not one of the seller's requests of the day, nor of the run.
   */
  notSent: boolean;
}

export interface Transport {
  baseUrl: URL;
  apiKey: string;
  /** node:http with a keep-alive agent (http-requester.ts), or an injected fetch (fetch-requester.ts). */
  request: HttpRequester;
  now: () => number;
  timeoutMs: number;
  /** The longest answer read (bytes); a longer one is refused unread (issue 10: bounded memory). */
  maxAnswerBytes?: number;
  logger: Logger;
  schedule: Schedule;
  onRequest: (event: RequestEvent, slot: unknown) => void;
  /** Asked in each request's turn before it is sent (SellerApiClient.gated): a chunk's hold on its rows. */
  gate?: RequestGate;
}

/** Throws (or rejects) when a request must not be sent: it is not, and counts nowhere. */
export type RequestGate = () => void | Promise<void>;

/**
 * Runs a request's task in its turn. What it hands the task (its token for the request: a run's
 * reserved number, run-context.ts) comes back to `onRequest` with the request's event: passed along,
 * not kept in an AsyncLocalStorage, whose promise hooks cost every promise of the process (issue 31).
 */
export type Schedule = <T>(task: (slot?: unknown) => Promise<T>, gate?: RequestGate) => Promise<T>;

/**
 * A schedule that runs each task at once, after its gate: a client's own when none is given (the
 * schedule given asks the gate in the request's turn, before anything is counted for it).
 */
export const unscheduled: Schedule = async (task, gate) => {
  await gate?.();
  return task();
};

/**
 * Sends one request through the shared scheduler and reads the whole answer inside the slot.
 * Throws the error `errorOf` finds in the answer (the client's one status → error function), or a
 * NetworkError / TimeoutError. The key goes in the Authorization header and nowhere else (spec section 5).
 */
export function send(
  transport: Transport,
  method: string,
  url: URL,
  body: unknown,
  errorOf: (answer: Answer) => SellerApiError | null,
  /** Once aborted, a request still waiting for its slot is not sent (its promise rejects). */
  signal?: AbortSignal,
): Promise<Answer> {
  const path = displayPath(transport.baseUrl, url);
  const headers: Record<string, string> = {
    Accept: 'application/json',
    Authorization: `Bearer ${transport.apiKey}`,
    'User-Agent': USER_AGENT,
  };
  if (body !== undefined) headers['Content-Type'] = 'application/json';

  return transport.schedule(async (slot) => {
    signal?.throwIfAborted();
    const started = transport.now();
    let status: number | null = null;
    let responseHeaders: Record<string, string> = {};
    const finish = (error: SellerApiError | null): void => {
      const event = { method, path, status, ms: Math.max(0, transport.now() - started) };
      transport.logger.debug(event, 'seller api request');
      const notSent = error instanceof NetworkError && error.notSent;
      transport.onRequest({ ...event, headers: responseHeaders, error, notSent }, slot);
    };
    let answer: Answer;
    try {
      // Redirects are never followed by either requester: a 3xx is an answer (the key stays here).
      const response = await transport.request({
        method,
        url,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        timeoutMs: transport.timeoutMs,
      });
      status = response.status;
      responseHeaders = response.headers;
      const max = transport.maxAnswerBytes ?? MAX_ANSWER_BYTES;
      const text = await response.readBounded(max);
      if (text === null) {
        // Not retried: the same answer would come back. After a POST, the create may have been applied.
        const error = new AnswerCapError({
          method,
          path,
          status,
          headers: responseHeaders,
          reason: `the answer is over ${formatBytes(max)}, more than any real page; not read`,
        });
        finish(error);
        throw error;
      }
      answer = { method, url, path, status, statusText: response.statusText, headers: responseHeaders, text };
    } catch (failure) {
      if (failure instanceof InvalidResponseError) throw failure;
      const error = errorFromFailure(failure, {
        method,
        path,
        status,
        headers: responseHeaders,
        timeoutMs: transport.timeoutMs,
        secret: transport.apiKey,
      });
      finish(error);
      throw error;
    }
    const error = errorOf(answer);
    finish(error);
    if (error) throw error;
    return answer;
  }, transport.gate);
}

/** 16 MiB (answer-caps.ts): far above any page of products; a page read takes about 13 times its size in memory. */
export const MAX_ANSWER_BYTES = ANSWER_CAPS.pageBytes;
