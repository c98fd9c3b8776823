import nock from 'nock';
import pLimit from 'p-limit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DailyLimitError,
  InvalidRequestError,
  NotFoundError,
  type SellerApiError,
  ServerError,
  UnauthorizedError,
} from '../../src/seller-api/index.js';
import {
  API_KEY,
  BASE_PATH,
  collect,
  fastRetry,
  ORIGIN,
  probeClient,
  rejection,
} from './seller-api-helpers.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => {
  nock.enableNetConnect();
  nock.restore();
});

const api = () => nock(ORIGIN);

describe('every request', () => {
  it('carries Accept, the Bearer key and the User-Agent; a body adds Content-Type', async () => {
    const seen: Record<string, Record<string, unknown>> = {};
    api()
      .get(`${BASE_PATH}/ping`)
      .reply(function () {
        seen.ping = this.req.headers;
        return [200, { ok: true }];
      });
    api()
      .post(`${BASE_PATH}/products`, { name: 'Mug', price: 12.5 })
      .reply(function () {
        seen.create = this.req.headers;
        return [201, { id: 1, name: 'Mug', price: 12.5 }];
      });
    const { client } = probeClient();
    await client.ping();
    await client.createProduct({ name: 'Mug', price: 12.5 });
    for (const headers of [seen.ping, seen.create]) {
      expect(headers).toMatchObject({
        accept: 'application/json',
        authorization: `Bearer ${API_KEY}`,
        'user-agent': expect.stringMatching(/^catalog-sync\/\d+\.\d+\.\d+/),
      });
    }
    expect(seen.ping?.['content-type']).toBeUndefined();
    expect(seen.create?.['content-type']).toBe('application/json');
  });

  it('passes through schedule and reports to onRequest, once per request, failures included', async () => {
    api()
      .get(`${BASE_PATH}/products`)
      .reply(200, { data: [{ id: 1 }], meta: { page: 1, last_page: 2 } });
    api()
      .get(`${BASE_PATH}/products`)
      .query({ page: '2' })
      .reply(200, { data: [{ id: 2 }], meta: { page: 2, last_page: 2 } });
    api().get(`${BASE_PATH}/products`).query({ id: '9' }).reply(404);
    const { client, requests, scheduled } = probeClient();
    await collect(client.listProducts());
    await rejection(client.getProduct('9'));
    expect(scheduled()).toBe(3);
    expect(requests.map(({ method, path, status }) => ({ method, path, status }))).toEqual([
      { method: 'GET', path: '/products', status: 200 },
      { method: 'GET', path: '/products?page=2', status: 200 },
      { method: 'GET', path: '/products?id=9', status: 404 },
    ]);
  });

  it("hands onRequest the slot its request's schedule gave the task, failures included", async () => {
    api().get(`${BASE_PATH}/products`).query({ id: '1' }).delay(20).reply(200, { id: 1 });
    api().get(`${BASE_PATH}/products`).query({ id: '2' }).reply(404);
    let given = 0;
    const seen: Array<{ path: string; slot: unknown }> = [];
    const { client } = probeClient({
      // Both requests in flight at once: each event must come back with its own request's slot.
      schedule: (task) => task({ number: ++given }),
      onRequest: (event, slot) => seen.push({ path: event.path, slot }),
    });
    await Promise.allSettled([client.getProduct('1'), client.getProduct('2')]);
    expect(seen).toEqual([
      { path: '/products?id=2', slot: { number: 2 } },
      { path: '/products?id=1', slot: { number: 1 } },
    ]);
  });

  it.each([
    [429, DailyLimitError],
    [401, UnauthorizedError],
  ])('tells onRequest what a %i means before the next request leaves the scheduler', async (status, type) => {
    api().post(`${BASE_PATH}/products`).times(2).reply(status, 'stop');
    // The worker's hook: one slot at a time, and a task that starts after a pause is refused.
    let stopped: SellerApiError | null = null;
    const oneAtATime = pLimit(1);
    const { client, requests } = probeClient({
      schedule: (task) =>
        oneAtATime(() => {
          if (stopped) throw new Error(`paused by ${stopped.name}`);
          return task();
        }),
      onRequest: (event) => {
        requests.push(event);
        stopped ??= event.error;
      },
    });
    const [first, second] = await Promise.allSettled([
      client.createProduct({ name: 'a' }),
      client.createProduct({ name: 'b' }),
    ]);
    expect(first).toMatchObject({ status: 'rejected', reason: expect.any(type) });
    expect(second).toMatchObject({ status: 'rejected', reason: { message: `paused by ${type.name}` } });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ status, error: expect.any(type) });
  });

  it('uses an injected fetch, with a timeout signal on every request', async () => {
    const calls: Array<{ url: string; init: RequestInit | undefined }> = [];
    const fakeFetch: typeof globalThis.fetch = async (input, init) => {
      calls.push({ url: String(input), init });
      return new Response(JSON.stringify({ id: 5 }), { status: 200 });
    };
    const { client } = probeClient({ fetch: fakeFetch });
    expect((await client.getProduct('5')).id).toBe('5');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe(`${ORIGIN}${BASE_PATH}/products?id=5`);
    expect(calls[0]?.init?.signal).toBeInstanceOf(AbortSignal);
    expect(calls[0]?.init?.redirect).toBe('manual');
  });

  it('logs each request at debug level without the key', async () => {
    api().get(`${BASE_PATH}/ping`).reply(200);
    const { client, logs } = probeClient();
    await client.ping();
    expect(logs()).toContain('"method":"GET","path":"/ping","status":200');
    expect(logs()).not.toContain(API_KEY);
  });
});

describe('single resources', () => {
  it.each([
    ['bare', { id: 42, name: 'Mug' }],
    ['under data', { data: { id: 42, name: 'Mug' } }],
    ['under product', { product: { id: '42', name: 'Mug' } }],
  ])('reads a product %s, asked for with ?id=', async (_shape, body) => {
    api().get(`${BASE_PATH}/products`).query({ id: '42' }).reply(200, body);
    const product = await probeClient().client.getProduct('42');
    expect(product.id).toBe('42');
    expect(product.fields).toMatchObject({ name: 'Mug' });
  });

  it('URL-encodes the id', async () => {
    api()
      .get(`${BASE_PATH}/orders?id=a%2Fb%26c`)
      .reply(200, { order: { id: 'a/b&c' } });
    expect((await probeClient().client.getOrder('a/b&c')).id).toBe('a/b&c');
  });

  it('reads an order under order', async () => {
    api()
      .get(`${BASE_PATH}/orders`)
      .query({ id: '7' })
      .reply(200, { order: { id: 7, total: '19.99' } });
    expect(await probeClient().client.getOrder('7')).toEqual({ id: '7', fields: { id: 7, total: '19.99' } });
  });
});

describe('creating a product', () => {
  it.each([
    ['201 with the product', 201, { id: 42, name: 'Mug' }, {}, '42', true],
    ['200 with the product under data', 200, { data: { id: '43', name: 'Mug' } }, {}, '43', true],
    [
      '201 without a body but a Location ?id=',
      201,
      '',
      { Location: `${BASE_PATH}/products?id=44` },
      '44',
      false,
    ],
    ['204 with a Location path', 204, '', { Location: `${ORIGIN}${BASE_PATH}/products/45` }, '45', false],
    ['303 See Other with a Location', 303, '', { Location: `${BASE_PATH}/products?id=46` }, '46', false],
    ['201 without a body or Location', 201, '', {}, null, false],
    ['200 with a body without an id', 200, { success: true }, {}, null, false],
  ])('reads the id from %s', async (_name, status, body, headers, id, hasProduct) => {
    api().post(`${BASE_PATH}/products`).reply(status, body, headers);
    const result = await probeClient().client.createProduct({ name: 'Mug' });
    expect(result.id).toBe(id);
    expect(result.product?.id ?? null).toBe(hasProduct ? id : null);
  });

  it('is never retried, even under a retry policy, and leaves the outcome unknown on a 5xx', async () => {
    const scope = api().post(`${BASE_PATH}/products`).times(2).reply(503, 'busy');
    const { client, requests, sleeps } = probeClient({ retry: fastRetry });
    const error = await rejection(client.createProduct({ name: 'Mug' }));
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).outcomeUnknown).toBe(true);
    expect(requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
    expect(scope.isDone()).toBe(false);
  });
});

describe('updating a product', () => {
  it('sends PUT /products?id= with the changed fields and reads the echo', async () => {
    api()
      .put(`${BASE_PATH}/products`, { name: 'Big mug' })
      .query({ id: '7' })
      .reply(200, { id: 7, name: 'Big mug', price: '12.50' });
    expect(await probeClient().client.updateProduct('7', { name: 'Big mug' })).toEqual({
      id: '7',
      fields: { id: 7, name: 'Big mug', price: '12.50' },
    });
  });

  it('gives null when the API answers 204', async () => {
    api().put(`${BASE_PATH}/products`).query({ id: '7' }).reply(204);
    expect(await probeClient().client.updateProduct('7', { name: 'x' })).toBeNull();
  });
});

describe('when the API answers an error', () => {
  it.each([
    [
      400,
      { message: 'price must be a number' },
      InvalidRequestError,
      'PUT /products?id=7: 400 Bad Request: price must be a number',
    ],
    [401, { error: 'invalid key' }, UnauthorizedError, 'PUT /products?id=7: 401 Unauthorized: invalid key'],
    [404, '', NotFoundError, 'PUT /products?id=7: 404 Not Found'],
    [500, 'Internal error', ServerError, 'PUT /products?id=7: 500 Internal Server Error: Internal error'],
    [403, { errors: ['forbidden'] }, ServerError, 'PUT /products?id=7: 403 Forbidden: forbidden'],
  ])('turns %i into its error class with a one-line message', async (status, body, type, message) => {
    api().put(`${BASE_PATH}/products`).query({ id: '7' }).reply(status, body);
    const error = await rejection(probeClient().client.updateProduct('7', { price: 'x' }));
    expect(error).toBeInstanceOf(type);
    expect(error.message).toBe(message);
    expect((error as SellerApiError).status).toBe(status);
  });

  it('does not follow a redirect (the key could go with it)', async () => {
    api().get(`${BASE_PATH}/ping`).reply(302, '', { Location: 'https://elsewhere.example/ping' });
    const elsewhere = nock('https://elsewhere.example').get('/ping').reply(200);
    const error = await rejection(probeClient().client.ping());
    expect(error).toBeInstanceOf(ServerError);
    expect(elsewhere.isDone()).toBe(false);
  });

  describe('429', () => {
    it.each([
      ['Retry-After seconds', { 'Retry-After': '7200' }, '2024-05-10T17:30:00.000Z'],
      [
        'X-RateLimit-Reset epoch seconds',
        { 'X-RateLimit-Reset': String(Date.parse('2024-05-11T03:00:00Z') / 1000) },
        '2024-05-11T03:00:00.000Z',
      ],
      ['no header (daily reset 02:00)', {}, '2024-05-11T02:00:00.000Z'],
    ])('carries the reset instant from %s', async (_name, headers, resetAt) => {
      api().get(`${BASE_PATH}/products`).reply(429, { message: 'Daily limit reached' }, headers);
      const { client, requests } = probeClient({ dailyReset: '02:00', retry: fastRetry });
      const error = await rejection(collect(client.listProducts()));
      expect(error).toBeInstanceOf(DailyLimitError);
      expect((error as DailyLimitError).resetAt.toISOString()).toBe(resetAt);
      expect(requests).toHaveLength(1);
    });
  });
});

describe('retrying GET requests', () => {
  it('retries a 503 with backoff and returns the answer that follows', async () => {
    api().get(`${BASE_PATH}/products`).query({ id: '1' }).times(2).reply(503);
    api().get(`${BASE_PATH}/products`).query({ id: '1' }).reply(200, { id: 1 });
    const { client, sleeps, requests } = probeClient({ retry: fastRetry });
    expect((await client.getProduct('1')).id).toBe('1');
    expect(sleeps).toEqual([50, 100]);
    expect(requests.map((request) => request.status)).toEqual([503, 503, 200]);
  });

  it('gives up after the policy’s retries with the last error', async () => {
    api().get(`${BASE_PATH}/ping`).times(3).reply(500, { message: 'down' });
    const { client, requests } = probeClient({ retry: fastRetry });
    const error = await rejection(client.ping());
    expect(error).toBeInstanceOf(ServerError);
    expect(requests).toHaveLength(3);
  });

  it.each([400, 401, 404])('does not retry a %i', async (status) => {
    api().get(`${BASE_PATH}/ping`).reply(status);
    const { client, requests } = probeClient({ retry: fastRetry });
    await rejection(client.ping());
    expect(requests).toHaveLength(1);
  });

  it('does not retry at all without a retry policy', async () => {
    api().get(`${BASE_PATH}/ping`).reply(503);
    const { client, requests } = probeClient();
    await rejection(client.ping());
    expect(requests).toHaveLength(1);
  });
});

describe('the API key', () => {
  it('never appears in an error message, even when the server echoes it back', async () => {
    const echo = { message: `bad key ${API_KEY}`, headers: { authorization: `Bearer ${API_KEY}` } };
    api().get(`${BASE_PATH}/ping`).reply(401, echo);
    api().put(`${BASE_PATH}/products`).query({ id: '1' }).reply(400, `Authorization: Bearer ${API_KEY}`);
    api().get(`${BASE_PATH}/products`).reply(500, echo, { 'X-Debug': API_KEY });
    api()
      .get(`${BASE_PATH}/orders`)
      .reply(200, { data: [{ id: 1 }], next: `https://evil.example/?k=${API_KEY}` });
    const { client, logs } = probeClient();
    const errors = [
      await rejection(client.ping()),
      await rejection(client.updateProduct('1', { name: 'x' })),
      await rejection(collect(client.listProducts())),
      await rejection(collect(client.listOrders())),
    ];
    for (const error of errors) {
      expect(error.message).not.toContain(API_KEY);
      expect(JSON.stringify(error)).not.toContain(API_KEY);
    }
    expect(errors[0]?.message).toBe('GET /ping: 401 Unauthorized: bad key [redacted]');
    expect(logs()).not.toContain(API_KEY);
  });
});
