import { describe, expect, it } from 'vitest';
import {
  DailyLimitError,
  EndpointNotFoundError,
  InvalidBaseUrlError,
  InvalidRequestError,
  InvalidResponseError,
  NetworkError,
  NotFoundError,
  SellerApiError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
} from '../../../src/seller-api/errors/index.js';
import {
  type ErrorAction,
  errorAction,
  type FailedRequest,
  isRetryableRead,
  pauseOf,
  reasonOf,
} from '../../../src/sync/error-policy.js';
import { SellerPausedError } from '../../../src/sync/seller-pause.js';

/** The request of each kind: a read is a GET, a create a POST, an update a PUT (spec 4.1). */
const request = (kind: FailedRequest) =>
  ({
    read: { method: 'GET', path: '/products?page=2' },
    create: { method: 'POST', path: '/products' },
    update: { method: 'PUT', path: '/products?id=7' },
  })[kind];

/** Each error as the client builds it for that request (errors/from-response.ts, from-failure.ts). */
type Case = [
  string,
  (kind: FailedRequest) => unknown,
  read: ErrorAction,
  create: ErrorAction,
  update: ErrorAction,
];
const cases: Case[] = [
  [
    'a 400 (InvalidRequestError)',
    (k) => new InvalidRequestError({ ...request(k), status: 400, reason: 'price must be a number' }),
    'fail-row',
    'fail-row',
    'fail-row',
  ],
  [
    'a 401 (UnauthorizedError)',
    (k) => new UnauthorizedError({ ...request(k), status: 401 }),
    'pause-seller',
    'pause-seller',
    'pause-seller',
  ],
  [
    'a 404 (NotFoundError)',
    (k) => new NotFoundError({ ...request(k), status: 404 }),
    'fail-row',
    'fail-row',
    'recreate',
  ],
  [
    "a 404 of the API's own endpoint (EndpointNotFoundError: no API under the base URL)",
    (k) => new EndpointNotFoundError({ ...request(k), status: 404 }, 'Not Found', 'http://h/x/api/v1'),
    'pause-seller',
    'pause-seller',
    'pause-seller',
  ],
  [
    'a 429 (DailyLimitError)',
    (k) => new DailyLimitError({ ...request(k), status: 429 }, new Date('2024-05-11T00:00:00Z')),
    'pause-seller',
    'pause-seller',
    'pause-seller',
  ],
  [
    'a 500 on a write (ServerError, outcome unknown)',
    (k) => new ServerError({ ...request(k), status: 500, outcomeUnknown: true }),
    'retry',
    'look-first',
    'retry',
  ],
  [
    'a 503 on a write (ServerError, outcome unknown)',
    (k) => new ServerError({ ...request(k), status: 503, outcomeUnknown: true }),
    'retry',
    'look-first',
    'retry',
  ],
  [
    'a 408 (ServerError, retryable, not applied)',
    (k) => new ServerError({ ...request(k), status: 408 }),
    'retry',
    'retry',
    'retry',
  ],
  [
    'a 403 (ServerError, not retryable)',
    (k) => new ServerError({ ...request(k), status: 403 }),
    'fail-row',
    'fail-row',
    'fail-row',
  ],
  [
    'a connection reset after sending (NetworkError, outcome unknown)',
    (k) => new NetworkError({ ...request(k), status: null, code: 'ECONNRESET', outcomeUnknown: true }),
    'retry',
    'look-first',
    'retry',
  ],
  [
    'a refused connection (NetworkError, never sent)',
    (k) => new NetworkError({ ...request(k), status: null, code: 'ECONNREFUSED', outcomeUnknown: false }),
    'retry',
    'retry',
    'retry',
  ],
  [
    'a timeout (TimeoutError, outcome unknown)',
    (k) => new TimeoutError({ ...request(k), status: null, outcomeUnknown: true }, 30_000),
    'retry',
    'look-first',
    'retry',
  ],
  // Also a wrong-shaped 2xx: the create was applied, so the product is looked for and kept.
  [
    'a wrong-shaped success (InvalidResponseError, not retryable)',
    (k) =>
      new InvalidResponseError(
        { ...request(k), status: 200, reason: 'expected a product object with an id' },
        false,
      ),
    'fail-row',
    'look-first',
    'fail-row',
  ],
  // A 2xx was answered, so a create was applied: sending it again would make a second product.
  [
    'a success with broken JSON (InvalidResponseError, retryable)',
    (k) =>
      new InvalidResponseError({ ...request(k), status: 201, reason: 'the body is not valid JSON' }, true),
    'retry',
    'look-first',
    'retry',
  ],
  [
    'a bare SellerApiError, retryable',
    (k) => new SellerApiError('odd', { ...request(k), status: 502 }, true),
    'retry',
    'retry',
    'retry',
  ],
  [
    'a bare SellerApiError, not retryable',
    (k) => new SellerApiError('odd', { ...request(k), status: 418 }, false),
    'fail-row',
    'fail-row',
    'fail-row',
  ],
  [
    'an InvalidBaseUrlError (configuration, not the API)',
    () => new InvalidBaseUrlError('ftp://x/api/v1', 'ftp:// is not supported'),
    'fail-row',
    'fail-row',
    'fail-row',
  ],
  [
    'a daily-limit pause before sending (SellerPausedError)',
    () => new SellerPausedError('daily-limit', Date.parse('2024-05-11T00:00:00Z')),
    'pause-seller',
    'pause-seller',
    'pause-seller',
  ],
  [
    'a budget pause before sending (SellerPausedError)',
    () => new SellerPausedError('daily-budget', Date.parse('2024-05-11T00:00:00Z')),
    'pause-seller',
    'pause-seller',
    'pause-seller',
  ],
  [
    'a rejected key pause (SellerPausedError)',
    () => new SellerPausedError('unauthorized', null),
    'pause-seller',
    'pause-seller',
    'pause-seller',
  ],
  [
    // Not sent because Redis failed: never a row failed by the API; it stays queued.
    'a Redis Cluster that did not answer through a failover (ioredis, its retries used up)',
    () => new Error('Too many Cluster redirections. Last error: ReplyError: MOVED 9872 127.0.0.1:7001'),
    'stop',
    'stop',
    'stop',
  ],
  [
    'a plain TypeError (a bug, not the API)',
    () => new TypeError('cannot read properties of undefined'),
    'fail-row',
    'fail-row',
    'fail-row',
  ],
  ['a thrown string', () => 'boom', 'fail-row', 'fail-row', 'fail-row'],
];

describe('errorAction', () => {
  describe.each<FailedRequest>(['read', 'create', 'update'])('for a %s', (kind) => {
    it.each(cases)('on %s', (_name, build, onRead, onCreate, onUpdate) => {
      expect(errorAction(build(kind), kind)).toBe({ read: onRead, create: onCreate, update: onUpdate }[kind]);
    });
  });
});

describe('isRetryableRead (the client’s retry decision for a GET)', () => {
  it.each(cases)('on %s, follows the table’s read column', (_name, build, onRead) => {
    expect(isRetryableRead(build('read'))).toBe(onRead === 'retry');
  });
});

describe('pauseOf', () => {
  it('pauses a 429 until its reset instant', () => {
    const resetAt = new Date('2024-05-11T00:00:00Z');
    const pause = pauseOf(new DailyLimitError({ ...request('read'), status: 429 }, resetAt));
    expect(pause).toMatchObject({ reason: 'daily-limit', until: resetAt.getTime() });
  });

  it('pauses a 401 until a person resumes the seller', () => {
    const pause = pauseOf(new UnauthorizedError({ ...request('update'), status: 401 }));
    expect(pause).toMatchObject({ reason: 'unauthorized', until: null });
  });

  it('keeps a pause that was already decided (a used-up budget)', () => {
    const budget = new SellerPausedError('daily-budget', Date.parse('2024-05-11T00:00:00Z'));
    expect(pauseOf(budget)).toBe(budget);
  });

  it.each([
    ['a 503', new ServerError({ ...request('read'), status: 503 })],
    ['a 400', new InvalidRequestError({ ...request('create'), status: 400 })],
    ['a bug', new TypeError('x is undefined')],
  ])('does not pause on %s', (_name, error) => {
    expect(pauseOf(error)).toBeNull();
  });
});

describe('reasonOf', () => {
  it.each<[string, unknown, string]>([
    [
      'an error message',
      new Error('PUT /products?id=7: 400 Bad Request: price must be a number'),
      'PUT /products?id=7: 400 Bad Request: price must be a number',
    ],
    ['a message over several lines, as one line', new Error('bad\n  price\r\n'), 'bad price'],
    ['a thrown string', 'boom', 'boom'],
  ])('gives %s', (_case, error, expected) => {
    expect(reasonOf(error)).toBe(expected);
  });

  it('keeps a report cell short', () => {
    expect(reasonOf(new Error('x'.repeat(2000)))).toHaveLength(500);
  });
});
