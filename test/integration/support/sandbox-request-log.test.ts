import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { RequestLog } from '../../../src/sandbox/request-log.js';

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox({ keys: [{ key: 'key-a', seller: 'a' }] });
});
afterEach(() => sandbox.close());

function send(method: string, path: string, body?: string, key = 'key-a') {
  return fetch(`${sandbox.baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body }),
  });
}

describe("the sandbox's request log", () => {
  it('holds every API request with its method, path, query, parsed body, status and seller', async () => {
    await send('POST', '/products', JSON.stringify({ name: 'Lamp', price: 1 }));
    await send('PUT', '/products?id=1', JSON.stringify({ price: 2 }));
    await send('GET', '/products', undefined, 'wrong-key');

    expect(sandbox.requests()).toEqual([
      {
        method: 'POST',
        path: '/products',
        query: {},
        body: { name: 'Lamp', price: 1 },
        status: 201,
        seller: 'a',
      },
      { method: 'PUT', path: '/products', query: { id: '1' }, body: { price: 2 }, status: 200, seller: 'a' },
      { method: 'GET', path: '/products', query: {}, body: undefined, status: 401 },
    ]);
  });

  it('keeps a body that is not JSON as its text', async () => {
    await send('POST', '/products', '{not json');

    expect(sandbox.requests()).toMatchObject([{ body: '{not json', status: 400 }]);
  });

  it("gives each request the instant it was answered, on the sandbox's clock", async () => {
    await sandbox.close();
    let clock = 1_000;
    sandbox = await startSandbox({ keys: [{ key: 'key-a', seller: 'a' }], now: () => clock });
    await send('GET', '/ping');
    clock = 2_500;
    await send('GET', '/products');

    expect(sandbox.timedRequests()).toMatchObject([
      { method: 'GET', path: '/ping', status: 200, at: 1_000 },
      { method: 'GET', path: '/products', status: 200, at: 2_500 },
    ]);
    expect(sandbox.requests()[0]).not.toHaveProperty('at');
  });

  it('is emptied with the stats', async () => {
    await send('GET', '/ping');
    sandbox.resetStats();

    expect(sandbox.requests()).toEqual([]);
  });

  it('is served on the seam at GET /__sandbox/requests, and seam calls are not logged', async () => {
    await send('GET', '/ping');
    const seam = sandbox.baseUrl.replace(/\/api\/v1$/, '/__sandbox');

    const reply = await fetch(`${seam}/requests`);

    expect(reply.status).toBe(200);
    expect(await reply.json()).toEqual({
      data: [{ method: 'GET', path: '/ping', query: {}, status: 200, seller: 'a' }],
    });
  });

  it('keeps only the latest entries past its limit, so a benchmark cannot fill memory', () => {
    const log = new RequestLog(2);
    for (const n of [1, 2, 3])
      log.record({ method: 'GET', path: `/p${n}`, query: {}, body: null, status: 200, at: n });

    expect(log.snapshot().map((entry) => entry.path)).toEqual(['/p2', '/p3']);
  });
});
