import { afterEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { clientFor } from './http-client.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

describe('with fail rate 1', () => {
  it('answers 500 to every request and applies nothing', async () => {
    sandbox = await startSandbox({ failRate: 1 });
    const call = clientFor(sandbox);
    const created = await call('POST', '/products', { name: 'Lamp', price: 1 });
    expect(created.status).toBe(500);
    expect(created.body).toMatchObject({ error: { code: 'internal_error' } });
    expect((await call('GET', '/products')).status).toBe(500);
    expect(sandbox.products(sandbox.defaultKey.seller)).toEqual([]);
    expect(sandbox.stats().writesApplied).toBe(0);
  });

  it('still answers 401 to a bad key: the key is checked first', async () => {
    sandbox = await startSandbox({ failRate: 1 });
    expect((await clientFor(sandbox, 'wrong')('GET', '/ping')).status).toBe(401);
  });
});

describe('with a partial fail rate', () => {
  it('decides each request with the injected random source', async () => {
    const draws = [0.9, 0.1, 0.7];
    sandbox = await startSandbox({ failRate: 0.5, random: () => draws.shift() ?? 0.99 });
    const call = clientFor(sandbox);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await call('GET', '/ping')).status);
    expect(statuses).toEqual([200, 500, 200]);
  });
});

describe('with drop response rate 1', () => {
  it('applies a create, then closes the connection without an answer', async () => {
    sandbox = await startSandbox({ dropResponseRate: 1 });
    await expect(clientFor(sandbox)('POST', '/products', { name: 'Lamp', price: 1 })).rejects.toThrow();
    expect(sandbox.products(sandbox.defaultKey.seller)).toMatchObject([{ name: 'Lamp' }]);
    expect(sandbox.stats()).toMatchObject({ writesApplied: 1, dropped: 1 });
  });

  it('applies an update, then closes the connection without an answer', async () => {
    sandbox = await startSandbox({ dropResponseRate: 1 });
    const seller = sandbox.defaultKey.seller;
    const [id] = sandbox.seedProducts(seller, [{ name: 'Lamp', price: 1 }]);
    await expect(clientFor(sandbox)('PUT', `/products?id=${id}`, { price: 2 })).rejects.toThrow();
    expect(sandbox.products(seller)).toMatchObject([{ price: 2 }]);
  });

  it('answers reads and refused writes as usual', async () => {
    sandbox = await startSandbox({ dropResponseRate: 1 });
    const call = clientFor(sandbox);
    expect((await call('GET', '/products')).status).toBe(200);
    expect((await call('POST', '/products', { price: 1 })).status).toBe(400);
  });
});

describe('setFaults', () => {
  it('switches faults on and off while the sandbox runs', async () => {
    sandbox = await startSandbox();
    const call = clientFor(sandbox);
    sandbox.setFaults({ failRate: 1 });
    expect((await call('GET', '/ping')).status).toBe(500);
    sandbox.setFaults({ failRate: 0 });
    expect((await call('GET', '/ping')).status).toBe(200);
  });

  it.each([{ failRate: 2 }, { dropResponseRate: -0.1 }, { latencyMs: -1 }, { dailyLimit: 1.5 }])(
    'refuses %o',
    async (faults) => {
      sandbox = await startSandbox();
      expect(() => sandbox?.setFaults(faults)).toThrow(RangeError);
    },
  );
});

describe('stats', () => {
  it('counts served requests by route, status and seller, and 429s and applied writes', async () => {
    sandbox = await startSandbox({
      dailyLimit: 4,
      keys: [
        { key: 'key-a', seller: 'a' },
        { key: 'key-b', seller: 'b' },
      ],
    });
    const a = clientFor(sandbox, 'key-a');
    await a('GET', '/products');
    const created = await a('POST', '/products', { name: 'Lamp', price: 1 });
    const id = (created.body as { data: { id: number } }).data.id;
    await a('PUT', `/products?id=${id}`, { name: 'Desk lamp' });
    await a('POST', '/products', { name: '' });
    await a('GET', '/ping');
    await clientFor(sandbox, 'key-b')('GET', '/products?page=1');
    await clientFor(sandbox, 'nobody')('GET', '/ping');
    expect(sandbox.stats()).toEqual({
      total: 7,
      byRoute: { 'GET /products': 2, 'POST /products': 2, 'PUT /products': 1, 'GET /ping': 2 },
      byStatus: { '200': 3, '201': 1, '400': 1, '429': 1, '401': 1 },
      bySeller: { a: 5, b: 1 },
      rateLimited: 1,
      writesApplied: 2,
      dropped: 0,
      // One request at a time.
      maxInFlight: 1,
    });
  });

  it('starts again from zero after resetStats', async () => {
    sandbox = await startSandbox();
    await clientFor(sandbox)('GET', '/ping');
    sandbox.resetStats();
    expect(sandbox.stats()).toMatchObject({ total: 0, byRoute: {} });
  });
});
