import { describe, expect, it } from 'vitest';
import {
  ConnectionFailure,
  DailyLimitError,
  EndpointNotFoundError,
  errorFromFailure,
  errorFromResponse,
  InvalidRequestError,
  NetworkError,
  NotFoundError,
  SellerApiError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
} from '../../../src/seller-api/errors/index.js';
import { reasonFromBody } from '../../../src/seller-api/errors/reason.js';

const now = Date.parse('2024-05-10T15:30:00Z');
const context = { now, dailyReset: '00:00', secret: 'sk_live_SECRET123' };
const response = (
  status: number,
  body = '',
  extra: Partial<Parameters<typeof errorFromResponse>[0]> = {},
) => ({
  method: 'PUT',
  path: '/products?id=7',
  status,
  headers: {},
  body,
  ...extra,
});

describe('errorFromResponse', () => {
  it.each([
    [400, InvalidRequestError, false, false],
    [422, InvalidRequestError, false, false],
    [401, UnauthorizedError, false, false],
    [404, NotFoundError, false, false],
    [429, DailyLimitError, false, false],
    [500, ServerError, true, true],
    [502, ServerError, true, true],
    [503, ServerError, true, true],
    [403, ServerError, false, false],
    [409, ServerError, false, false],
    [302, ServerError, false, false],
  ])(
    'maps %i on a PUT to %o (retryable %s, outcome unknown %s)',
    (status, type, retryable, outcomeUnknown) => {
      const error = errorFromResponse(response(status), context);
      expect(error).toBeInstanceOf(type);
      expect(error).toBeInstanceOf(SellerApiError);
      expect(error.status).toBe(status);
      expect(error.retryable).toBe(retryable);
      expect(error.outcomeUnknown).toBe(outcomeUnknown);
    },
  );

  it("tells a 404 of the API's own endpoint (no API under the base URL) from a 404 of one record", () => {
    const base = 'http://127.0.0.1:43410/x/api/v1';
    const at = (method: string, path: string) =>
      errorFromResponse({ ...response(404), method, path }, { ...context, baseUrl: base });
    for (const [method, path] of [
      ['GET', '/ping'],
      ['GET', '/products'],
      ['POST', '/products'],
      ['GET', '/orders'],
    ] as const) {
      const error = at(method, path);
      expect(error, `${method} ${path}`).toBeInstanceOf(EndpointNotFoundError);
      expect((error as EndpointNotFoundError).baseUrl).toBe(base);
    }
    // One product or order: gone, or another seller's (spec 2.3); a later page of a list: not the base URL's.
    for (const [method, path] of [
      ['PUT', '/products?id=7'],
      ['GET', '/products?id=7'],
      ['GET', '/orders?id=3'],
      ['GET', '/products?page=2'],
    ] as const) {
      const error = at(method, path);
      expect(error, `${method} ${path}`).toBeInstanceOf(NotFoundError);
      expect(error, `${method} ${path}`).not.toBeInstanceOf(EndpointNotFoundError);
    }
  });

  it('leaves the outcome known for a 5xx on a GET (nothing to apply)', () => {
    expect(errorFromResponse({ ...response(503), method: 'GET' }, context).outcomeUnknown).toBe(false);
  });

  it.each([
    [
      400,
      '{"message":"price must be a number"}',
      'PUT /products?id=7: 400 Bad Request: price must be a number',
    ],
    [401, '', 'PUT /products?id=7: 401 Unauthorized'],
    [404, 'Not here', 'PUT /products?id=7: 404 Not Found: Not here'],
    [500, '<html><title>Oops</title></html>', 'PUT /products?id=7: 500 Internal Server Error: Oops'],
    [418, '', "PUT /products?id=7: 418 I'm a Teapot"],
  ])('builds a one-line message starting with the method and path for %i', (status, body, message) => {
    expect(errorFromResponse(response(status, body), context).message).toBe(message);
  });

  it('uses the status text the server sent when it sent one', () => {
    const error = errorFromResponse(response(400, '', { statusText: 'Invalid Product' }), context);
    expect(error.message).toBe('PUT /products?id=7: 400 Invalid Product');
  });

  it('keeps the status, headers (lower-cased) and body for the caller', () => {
    const error = errorFromResponse(
      response(400, '{"error":"bad"}', { headers: { 'X-Request-Id': 'r1' } }),
      context,
    );
    expect(error).toMatchObject({
      status: 400,
      headers: { 'x-request-id': 'r1' },
      body: '{"error":"bad"}',
      reason: 'bad',
    });
  });

  describe('when the API answers 429', () => {
    it('carries the reset instant from Retry-After', () => {
      const error = errorFromResponse(response(429, '', { headers: { 'Retry-After': '3600' } }), context);
      expect(error).toBeInstanceOf(DailyLimitError);
      expect((error as DailyLimitError).resetAt.toISOString()).toBe('2024-05-10T16:30:00.000Z');
      expect(error.message).toBe(
        'PUT /products?id=7: 429 Too Many Requests: daily limit resets at 2024-05-10T16:30:00.000Z',
      );
    });

    it('falls back to the daily reset without a header', () => {
      const error = errorFromResponse(response(429, '{"message":"Daily limit reached"}'), {
        ...context,
        dailyReset: '06:00',
      }) as DailyLimitError;
      expect(error.resetAt.toISOString()).toBe('2024-05-11T06:00:00.000Z');
      expect(error.message).toContain('Daily limit reached; daily limit resets at 2024-05-11T06:00:00.000Z');
    });
  });

  it('never carries the API key, even when the server echoes it', () => {
    const echo = `{"message":"invalid key sk_live_SECRET123","headers":{"authorization":"Bearer sk_live_SECRET123"}}`;
    const error = errorFromResponse(
      response(401, echo, { headers: { 'www-authenticate': 'Bearer sk_live_SECRET123' } }),
      context,
    );
    expect(error.message).toContain('invalid key [redacted]');
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain('sk_live_SECRET123');
  });

  // The forms a store's credentials are cut in too (secret-forms.ts): encoding changes `+`, `/`, `=`.
  const KEY = 'sk_live_a+b/c=d/e';
  it.each([
    ['URL-encoded', encodeURIComponent(KEY)],
    ['URL-encoded in lower-case hex', encodeURIComponent(KEY).toLowerCase()],
    ['with PHP escaped slashes', KEY.replaceAll('/', '\\/')],
  ])('never carries the API key %s, in a text body, a header, the path or a failure', (_how, form) => {
    const keyContext = { ...context, secret: KEY };
    const error = errorFromResponse(
      response(401, `key=${form} refused`, {
        path: `/products?key=${form}`,
        headers: { 'www-authenticate': `Bearer ${form}` },
      }),
      keyContext,
    );
    expect(error.message).toContain('key=[redacted] refused');
    const failure = errorFromFailure(new Error(`socket closed after ${form}`), {
      method: 'GET',
      path: `/ping?key=${form}`,
      status: null,
      timeoutMs: 1000,
      secret: KEY,
    });
    expect(failure.message).toContain('socket closed after [redacted]');
    for (const carried of [error, failure]) {
      expect(JSON.stringify({ ...carried, message: carried.message })).not.toContain(form);
    }
  });
});

describe('reasonFromBody', () => {
  it.each([
    ['an empty body', '', ''],
    ['whitespace', '  \n ', ''],
    ['plain text', 'Something broke\nbadly', 'Something broke badly'],
    ['a JSON string', '"price is required"', 'price is required'],
    ['message', '{"message":"price must be a number"}', 'price must be a number'],
    ['error as a string', '{"error":"invalid_json"}', 'invalid_json'],
    ['error.message', '{"error":{"code":"E1","message":"name too long"}}', 'name too long'],
    ['detail (RFC 9457)', '{"title":"Bad Request","detail":"price is negative"}', 'price is negative'],
    [
      'errors as strings',
      '{"errors":["name is required","price is required"]}',
      'name is required; price is required',
    ],
    ['errors as objects', '{"errors":[{"field":"price","message":"must be > 0"}]}', 'price: must be > 0'],
    [
      'message with field errors (Laravel)',
      '{"message":"The given data was invalid.","errors":{"price":["The price must be a number."]}}',
      'The given data was invalid. (price: The price must be a number.)',
    ],
    ['a JSON array', '[{"message":"a"},{"message":"b"}]', 'a; b'],
    [
      'an HTML page',
      '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head></html>',
      '502 Bad Gateway',
    ],
    [
      'HTML without a title',
      '<html><body><h1>Down</h1><p>for maintenance</p></body></html>',
      'Down for maintenance',
    ],
    ['broken JSON', '{"message": "oops', '{"message": "oops'],
    ['an object without a known key', '{"ok":false}', ''],
  ])('reads %s', (_name, body, expected) => {
    expect(reasonFromBody(body)).toBe(expected);
  });

  it('trims a long reason to about 300 characters, on one line', () => {
    const reason = reasonFromBody(`{"message":"${'x'.repeat(1000)}"}`);
    expect(reason).toHaveLength(300);
    expect(reason.endsWith('…')).toBe(true);
  });
});

describe('errorFromFailure', () => {
  const failure = (method: string) => ({ method, path: '/products', status: null, timeoutMs: 500 });
  const fetchFailed = (code: string, message: string) =>
    new TypeError('fetch failed', { cause: Object.assign(new Error(message), { code }) });

  it.each([
    ['GET', 'ECONNREFUSED', false],
    ['POST', 'ECONNREFUSED', false],
    ['POST', 'ENOTFOUND', false],
    ['POST', 'ECONNRESET', true],
    ['PUT', 'UND_ERR_SOCKET', true],
    ['GET', 'ECONNRESET', false],
  ])('a %s failing with %s is a NetworkError whose outcome unknown is %s', (method, code, outcomeUnknown) => {
    const error = errorFromFailure(fetchFailed(code, `${code} happened`), failure(method));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.code).toBe(code);
    expect(error.outcomeUnknown).toBe(outcomeUnknown);
    expect(error.retryable).toBe(true);
    expect(error.message).toBe(`${method} /products: network error: ${code} happened (${code})`);
  });

  it('classifies an aborted timeout as a TimeoutError whose write outcome is unknown', () => {
    const abort = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    const error = errorFromFailure(abort, failure('POST'));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.outcomeUnknown).toBe(true);
    expect(error.message).toBe('POST /products: no complete answer within 500 ms');
  });

  it.each([
    ['ECONNREFUSED', true],
    ['EHOSTUNREACH', true],
    ['ENETUNREACH', true],
    ['ENOTFOUND', true],
    ['EAI_AGAIN', true],
    ['UND_ERR_CONNECT_TIMEOUT', true],
    ['ECONNRESET', false],
    ['UND_ERR_SOCKET', false],
    ['EPIPE', false],
  ])('a failure %s from an injected fetch (its connect phase only) is not sent: %s', (code, notSent) => {
    expect(errorFromFailure(fetchFailed(code, `${code} happened`), failure('GET')).notSent).toBe(notSent);
  });

  it('believes the requester on whether the connection was made, whatever the code', () => {
    const cause = Object.assign(new Error('connect EHOSTUNREACH 127.0.0.1:9'), { code: 'EHOSTUNREACH' });
    const before = errorFromFailure(new ConnectionFailure(cause, false), failure('POST'));
    expect(before).toMatchObject({ code: 'EHOSTUNREACH', notSent: true, outcomeUnknown: false });
    expect(before.message).toBe(
      'POST /products: network error: connect EHOSTUNREACH 127.0.0.1:9 (EHOSTUNREACH)',
    );
    // The host went out of reach once the request had been written: it may have been applied.
    const after = errorFromFailure(new ConnectionFailure(cause, true), failure('POST'));
    expect(after).toMatchObject({ code: 'EHOSTUNREACH', notSent: false, outcomeUnknown: true });
  });

  it('never takes a failure once an answer came for one not sent', () => {
    const error = errorFromFailure(fetchFailed('ECONNREFUSED', 'odd'), { ...failure('GET'), status: 200 });
    expect(error.notSent).toBe(false);
  });

  it('counts a timeout as sent: the request may be waiting at the API', () => {
    const abort = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    expect(errorFromFailure(abort, failure('GET')).notSent).toBe(false);
  });

  it('removes the key from a failure message that carries it', () => {
    const error = errorFromFailure(fetchFailed('EPROTO', 'bad header Bearer k3y-abcdef'), {
      ...failure('GET'),
      secret: 'k3y-abcdef',
    });
    expect(error.message).not.toContain('k3y-abcdef');
  });
});
