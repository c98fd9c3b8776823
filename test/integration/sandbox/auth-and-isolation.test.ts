import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { clientFor, dataOf } from './http-client.js';

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox({
    keys: [
      { key: 'key-alice', seller: 'alice' },
      { key: 'key-bob', seller: 'bob' },
    ],
  });
});
afterEach(() => sandbox.close());

describe('authentication (spec 5)', () => {
  it('answers /ping with 200 for a valid key', async () => {
    const reply = await clientFor(sandbox, 'key-alice')('GET', '/ping');
    expect(reply.status).toBe(200);
  });

  it.each([
    ['a missing key', null],
    ['an unknown key', 'key-nobody'],
  ])('answers 401 to %s, on /ping and on every endpoint', async (_case, key) => {
    const call = clientFor(sandbox, key);
    for (const [method, path] of [
      ['GET', '/ping'],
      ['GET', '/products'],
      ['POST', '/products'],
      ['GET', '/orders'],
      ['GET', '/categories'],
      ['GET', '/no-such-endpoint'],
    ] as const) {
      const reply = await call(method, path, method === 'POST' ? { name: 'x', price: 1 } : undefined);
      expect(reply.status, `${method} ${path}`).toBe(401);
      expect(reply.body).toMatchObject({ error: { code: 'unauthorized' } });
    }
    expect(sandbox.products('alice')).toEqual([]);
  });

  it('answers 401 once a key is revoked, and 200 for a key added later', async () => {
    expect((await clientFor(sandbox, 'key-alice')('GET', '/ping')).status).toBe(200);
    sandbox.revokeKey('key-alice');
    expect((await clientFor(sandbox, 'key-alice')('GET', '/ping')).status).toBe(401);
    sandbox.addKey('key-carol', 'carol');
    expect((await clientFor(sandbox, 'key-carol')('GET', '/ping')).status).toBe(200);
  });

  it('does not echo the key in a 401 body', async () => {
    const reply = await clientFor(sandbox, 'key-nobody')('GET', '/ping');
    expect(JSON.stringify(reply.body)).not.toContain('key-nobody');
  });
});

describe('isolation between sellers (spec 2.3)', () => {
  it("answers another seller's product id with the same 404 as a missing one", async () => {
    const [bobsId] = sandbox.seedProducts('bob', [{ name: 'Bob lamp', price: 10 }]);
    const alice = clientFor(sandbox, 'key-alice');
    const others = await alice('GET', `/products?id=${bobsId}`);
    const missing = await alice('GET', '/products?id=999999');
    expect(others.status).toBe(404);
    expect(others.body).toEqual(missing.body);
    expect(others.headers.get('content-type')).toBe(missing.headers.get('content-type'));
  });

  it("refuses to update another seller's product, with the 404 of a missing one, and leaves it alone", async () => {
    const [bobsId] = sandbox.seedProducts('bob', [{ name: 'Bob lamp', price: 10 }]);
    const alice = clientFor(sandbox, 'key-alice');
    const others = await alice('PUT', `/products?id=${bobsId}`, { name: 'Stolen' });
    const missing = await alice('PUT', '/products?id=999999', { name: 'Stolen' });
    expect(others.status).toBe(404);
    expect(others.body).toEqual(missing.body);
    expect(sandbox.products('bob')[0]).toMatchObject({ name: 'Bob lamp' });
  });

  it("answers another seller's order id with the same 404 as a missing one", async () => {
    const bobsOrders = await clientFor(sandbox, 'key-bob')('GET', '/orders');
    const bobsOrderId = (bobsOrders.body as { data: Array<{ id: number }> }).data[0]?.id;
    const alice = clientFor(sandbox, 'key-alice');
    const others = await alice('GET', `/orders?id=${bobsOrderId}`);
    const missing = await alice('GET', '/orders?id=999999');
    expect(others.status).toBe(404);
    expect(others.body).toEqual(missing.body);
  });

  it("lists only the caller's own products", async () => {
    sandbox.seedProducts('alice', [{ name: 'Alice chair', price: 5 }]);
    sandbox.seedProducts('bob', [{ name: 'Bob lamp', price: 10 }]);
    const reply = await clientFor(sandbox, 'key-alice')('GET', '/products');
    const names = (reply.body as { data: Array<{ name: string }> }).data.map((product) => product.name);
    expect(names).toEqual(['Alice chair']);
  });

  it('gives ids that are numeric, increasing and unique across sellers', async () => {
    const alice = clientFor(sandbox, 'key-alice');
    const bob = clientFor(sandbox, 'key-bob');
    const first = dataOf(await alice('POST', '/products', { name: 'A', price: 1 })).id as number;
    const second = dataOf(await bob('POST', '/products', { name: 'B', price: 1 })).id as number;
    const third = dataOf(await alice('POST', '/products', { name: 'C', price: 1 })).id as number;
    expect([typeof first, typeof second, typeof third]).toEqual(['number', 'number', 'number']);
    expect(first < second && second < third).toBe(true);
  });
});
