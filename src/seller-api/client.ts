import { ANSWER_CAPS, DEFAULT_TIMEOUT_MS } from '../defaults.js';
import type { ProductFields } from '../interfaces.js';
import { type Logger, silentLogger } from '../logger.js';
import { type AnswerCaps, ListBudget } from './answer-caps.js';
import {
  answerCapPassed,
  errorOfAnswer,
  idFromLocation,
  invalidResponse,
  parseJsonBody,
} from './answer-reading.js';
import { endpointUrl, parseBaseUrl } from './base-url.js';
import type { ErrorContext } from './errors/from-response.js';
import { fetchRequester } from './fetch-requester.js';
import type { HttpRequester } from './http-exchange.js';
import { sharedHttpRequester } from './http-requester.js';
import { type ListPageReading, readListPage } from './list-page.js';
import { type RemoteOrder, type RemoteProduct, type RemoteRecord, readRecord } from './remote-record.js';
import { parseDailyReset } from './reset-instant.js';
import { backoffDelay, type GetRetry } from './retry-policy.js';
import {
  type Answer,
  type RequestEvent,
  type RequestGate,
  type Schedule,
  send,
  type Transport,
  unscheduled,
} from './transport.js';

export interface SellerApiClientOptions {
  /** Ends in `/api/v1`; validated with parseBaseUrl. */
  baseUrl: string;
  apiKey: string;
  /** Allow `http://` to a non-loopback host. */
  allowInsecure?: boolean;
  /** Used instead of node:http when given (tests inject fakes). */
  fetch?: typeof globalThis.fetch;
  /**
   * The HTTP client when no `fetch` is given. Default: the process's shared node:http requester
   * (http-requester.ts); a worker passes one whose agent is sized to its concurrency.
   */
  request?: HttpRequester;
  /** Epoch ms. */
  now?: () => number;
  /** Every request has one. Default 30_000. */
  timeoutMs?: number;
  /** The longest answer read, in bytes. Default `answerCaps.pageBytes`. */
  maxAnswerBytes?: number;
  /** How much one list read may bring (answer-caps.ts). Default ANSWER_CAPS; tests scale them down. */
  answerCaps?: Partial<AnswerCaps>;
  /** `HH:MM` UTC used when a 429 carries no reset header. Default `00:00`. */
  dailyReset?: string;
  /** Default silentLogger. */
  logger?: Logger;
  /**
   * Every HTTP request passes through it (the process's shared p-limit); what it hands the task
   * comes back as `onRequest`'s `slot` (transport.ts Schedule).
   */
  schedule?: Schedule;
  /** Called after every answer or network failure: used to count requests. */
  onRequest?: (event: RequestEvent, slot: unknown) => void;
  /** Asked in each request's turn, before it is sent: see `gated`. */
  gate?: RequestGate;
  /**
   * Applied to GET requests only: the one layer that tries a failed read again (the worker does
   * not try the read once more on top). No retries when absent.
   */
  retry?: GetRetry;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

/** `id` is null when the API answered without a body or id: the caller then looks the product up. */
export interface CreateResult {
  id: string | null;
  product: RemoteProduct | null;
}

/** A runaway guard: an API that always names a new next page would otherwise be read forever. */
export const MAX_LIST_PAGES = ANSWER_CAPS.pages;

/** A list page asked for: its answer and reading, and how to stop trying it. */
interface PageRead {
  url: URL;
  read: Promise<{ answer: Answer; reading: ListPageReading }>;
  abort: () => void;
}

/** The Seller API v1 client (spec section 4.1): one method per operation, errors from errors/. */
export class SellerApiClient {
  readonly #options: SellerApiClientOptions;
  readonly #transport: Transport;
  readonly #errorContext: () => ErrorContext;
  readonly #retry: GetRetry | undefined;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #random: () => number;
  readonly #caps: AnswerCaps;

  constructor(options: SellerApiClientOptions) {
    this.#options = options;
    this.#caps = { ...ANSWER_CAPS, ...options.answerCaps };
    const baseUrl = parseBaseUrl(options.baseUrl, { allowInsecure: options.allowInsecure ?? false });
    if (options.apiKey.trim() === '') throw new Error('the Seller API key is empty');
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
      throw new RangeError(`timeoutMs must be a positive number of milliseconds, got ${timeoutMs}`);
    }
    const dailyReset = options.dailyReset ?? '00:00';
    parseDailyReset(dailyReset);
    const now = options.now ?? Date.now;
    this.#transport = {
      baseUrl,
      apiKey: options.apiKey,
      request: options.fetch ? fetchRequester(options.fetch) : (options.request ?? sharedHttpRequester()),
      now,
      timeoutMs,
      maxAnswerBytes: options.maxAnswerBytes ?? this.#caps.pageBytes,
      logger: options.logger ?? silentLogger,
      schedule: options.schedule ?? unscheduled,
      onRequest: options.onRequest ?? (() => {}),
      ...(options.gate ? { gate: options.gate } : {}),
    };
    this.#errorContext = () => ({ now: now(), dailyReset, secret: options.apiKey, baseUrl: options.baseUrl });
    this.#retry = options.retry;
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.#random = options.random ?? Math.random;
  }

  /**
   * The same client (its key, schedule and counting), whose every request first passes `gate` in its
   * turn: a chunk's requests stop once its worker lost the chunk (queue/chunk-hold.ts).
   */
  gated(gate: RequestGate): SellerApiClient {
    return new SellerApiClient({ ...this.#options, gate });
  }

  /** `GET /ping`: resolves when the key is valid (spec section 5 rule 4). */
  async ping(): Promise<void> {
    await this.#withRetry(() => this.#get(this.#url('/ping')));
  }

  /**
   * One `GET /ping`, never tried again: whether the API can be reached at all (a seller paused on
   * an unreachable API is probed so). Rejects with what the answer or the failure means.
   */
  async probe(): Promise<void> {
    await this.#get(this.#url('/ping'));
  }

  listProducts(): AsyncGenerator<RemoteProduct[]> {
    return this.#list('/products');
  }

  listOrders(): AsyncGenerator<RemoteOrder[]> {
    return this.#list('/orders');
  }

  getProduct(id: string): Promise<RemoteProduct> {
    return this.#getOne('/products', id, 'product');
  }

  getOrder(id: string): Promise<RemoteOrder> {
    return this.#getOne('/orders', id, 'order');
  }

  /**
   * `POST /products`. Never retried here: when the answer is lost the product may exist, and only
   * the caller can look before sending again. A 2xx (or 303) without a readable id gives `id: null`.
   */
  async createProduct(fields: ProductFields): Promise<CreateResult> {
    const answer = await this.#send('POST', this.#url('/products'), fields, [303]);
    const record = this.#lenientRecord(answer);
    if (record) return { id: record.id, product: record };
    return { id: idFromLocation(answer), product: null };
  }

  /** `PUT /products?id=…`. The product as the API echoed it, or null when it echoed none. */
  async updateProduct(id: string, fields: ProductFields): Promise<RemoteProduct | null> {
    const url = this.#url('/products', id);
    const answer = await this.#send('PUT', url, fields);
    return this.#lenientRecord(answer);
  }

  /**
   * Every page of a list, in order. When the pages are numbered up to a last page the answer named,
   * the page after the next is asked for together with the next one: two requests in flight, so a
   * long list reads in about half the time of one page after the other (issue 12), with the same
   * requests. Such an early page is dropped unasked-for only when the list ended sooner than its
   * last answer said (it shrank meanwhile), and it is not tried again once the read has ended.
   */
  async *#list(path: string): AsyncGenerator<RemoteRecord[]> {
    const baseOrigin = this.#transport.baseUrl.origin;
    const fetched = new Set<string>();
    let url = this.#url(path);
    let after: URL | null = null;
    let early: PageRead | null = null;
    const budget = new ListBudget(this.#caps);
    try {
      for (;;) {
        fetched.add(url.href);
        const current: PageRead = early?.url.href === url.href ? early : this.#readPage(url);
        if (early !== current) early?.abort();
        early =
          after && after.origin === baseOrigin && !fetched.has(after.href) ? this.#readPage(after) : null;
        const { answer, reading }: { answer: Answer; reading: ListPageReading } = await current.read;
        if (!reading.ok) throw invalidResponse(answer, this.#key, reading.problem);
        const past = budget.take(Buffer.byteLength(answer.text), reading.records);
        if (past !== null) throw answerCapPassed(answer, this.#key, past);
        yield reading.records;
        const next = reading.next;
        if (next === null || fetched.has(next.href)) return;
        if (next.origin !== baseOrigin) {
          throw invalidResponse(
            answer,
            this.#key,
            `the next page is on another origin (${next.origin}); not followed, so the API key goes nowhere else`,
          );
        }
        const noMore = budget.nextPage();
        if (noMore !== null) throw answerCapPassed(answer, this.#key, noMore);
        url = next;
        after = reading.after;
      }
    } finally {
      early?.abort();
    }
  }

  /** One list page, tried again under the policy until `abort()`. */
  #readPage(url: URL): PageRead {
    const controller = new AbortController();
    const read = this.#withRetry(async () => {
      const answer = await this.#send('GET', url, undefined, [], controller.signal);
      return { answer, reading: readListPage(parseJsonBody(answer, this.#key), answer.headers.link, url) };
    }, controller.signal);
    // A page read early may never be awaited (the list ended first): its failure is nobody's.
    read.catch(() => undefined);
    return { url, read, abort: () => controller.abort() };
  }

  async #getOne(path: string, id: string, what: string): Promise<RemoteRecord> {
    const url = this.#url(path, id);
    const { answer, record } = await this.#withRetry(async () => {
      const answer = await this.#get(url);
      return { answer, record: readRecord(parseJsonBody(answer, this.#key)) };
    });
    if (!record) throw invalidResponse(answer, this.#key, `expected a ${what} object with an id`);
    return record;
  }

  #get(url: URL): Promise<Answer> {
    return this.#send('GET', url, undefined);
  }

  /** One request; a non-success answer (other than `alsoAccept`) rejects with the error it means. */
  #send(
    method: string,
    url: URL,
    body: unknown,
    alsoAccept: readonly number[] = [],
    signal?: AbortSignal,
  ): Promise<Answer> {
    return send(
      this.#transport,
      method,
      url,
      body,
      (answer) => errorOfAnswer(answer, this.#errorContext(), alsoAccept),
      signal,
    );
  }

  /** Retries GET work under the policy; writes never come here (see createProduct). */
  async #withRetry<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const tries: unknown[] = [];
    for (let attempt = 1; ; attempt++) {
      try {
        return await work();
      } catch (error) {
        tries.push(error);
        const retry = this.#retry;
        if (signal?.aborted || !retry?.retryable(error)) throw error;
        const retries = retry.retries ? retry.retries(error) : retry.policy.retries;
        if (attempt > retries) throw retry.afterTries ? retry.afterTries(error, tries) : error;
        const delayMs = backoffDelay(attempt, retry.policy, this.#random);
        this.#transport.logger.warn(
          { attempt, delayMs, error: error instanceof Error ? error.message : String(error) },
          'seller api request failed; retrying',
        );
        await this.#sleep(delayMs);
        signal?.throwIfAborted();
      }
    }
  }

  /** A write's echo: broken or empty bodies give null, since the write itself succeeded. */
  #lenientRecord(answer: Answer): RemoteRecord | null {
    try {
      return readRecord(parseJsonBody(answer, this.#key));
    } catch (error) {
      this.#transport.logger.warn(
        { method: answer.method, path: answer.path, status: answer.status },
        error instanceof Error ? error.message : 'unreadable body',
      );
      return null;
    }
  }

  #url(path: string, id?: string): URL {
    if (id === undefined) return endpointUrl(this.#transport.baseUrl, path);
    if (id.trim() === '') throw new RangeError(`an id is required for ${path}?id=…`);
    return endpointUrl(this.#transport.baseUrl, path, { id });
  }

  get #key(): string {
    return this.#transport.apiKey;
  }
}
