import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { clientFor } from './http-client.js';

let sandbox: Sandbox;
let seam: string;
beforeEach(async () => {
  sandbox = await startSandbox({ keys: [{ key: 'key-a', seller: 'a' }] });
  seam = sandbox.baseUrl.replace(/\/api\/v1$/, '/__sandbox');
});
afterEach(() => sandbox.close());

async function control(method: string, path: string, body?: unknown) {
  const response = await fetch(`${seam}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

describe('the /__sandbox test seam', () => {
  it('serves the stats without a key, and is itself never counted', async () => {
    await clientFor(sandbox, 'key-a')('GET', '/ping');
    const first = await control('GET', '/stats');
    const second = await control('GET', '/stats');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 1, byRoute: { 'GET /ping': 1 } });
    expect(second.body).toEqual(first.body);
  });

  it('resets the stats', async () => {
    await clientFor(sandbox, 'key-a')('GET', '/ping');
    expect((await control('POST', '/stats/reset')).status).toBe(204);
    expect((await control('GET', '/stats')).body).toMatchObject({ total: 0 });
  });

  it("seeds, shows, edits and deletes a seller's products", async () => {
    const seeded = await control('POST', '/products?seller=a', [{ name: 'Lamp', price: 1, sku: 'L-1' }]);
    const [id] = (seeded.body as { data: { ids: string[] } }).data.ids;
    expect((await control('PUT', `/products?seller=a&id=${id}`, { price: 3 })).status).toBe(204);
    expect((await control('GET', '/products?seller=a')).body).toMatchObject({
      data: [{ id: Number(id), name: 'Lamp', price: 3, sku: 'L-1' }],
    });
    expect((await control('DELETE', `/products?seller=a&id=${id}`)).status).toBe(204);
    expect(sandbox.products('a')).toEqual([]);
  });

  it('sets faults, as setFaults', async () => {
    expect((await control('POST', '/faults', { failRate: 1 })).status).toBe(204);
    expect((await clientFor(sandbox, 'key-a')('GET', '/ping')).status).toBe(500);
  });

  it('refuses a fault out of range with 400 naming it', async () => {
    const reply = await control('POST', '/faults', { failRate: 3 });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: { message: expect.stringContaining('failRate') } });
  });

  it('adds and revokes keys', async () => {
    expect((await control('POST', '/keys', { key: 'key-b', seller: 'b' })).status).toBe(204);
    expect((await clientFor(sandbox, 'key-b')('GET', '/ping')).status).toBe(200);
    expect((await control('POST', '/keys', { revoke: 'key-b' })).status).toBe(204);
    expect((await clientFor(sandbox, 'key-b')('GET', '/ping')).status).toBe(401);
  });

  it.each([
    ['GET', '/products', undefined],
    ['PUT', '/products?seller=a&id=999', { name: 'x' }],
    ['POST', '/keys', { key: 'only-a-key' }],
    ['GET', '/nothing-here', undefined],
  ])('answers %s %s with an error, not a crash', async (method, path, body) => {
    const reply = await control(method, path, body);
    expect(reply.status).toBeGreaterThanOrEqual(400);
    expect(reply.body).toMatchObject({ error: { message: expect.any(String) } });
  });
});

describe('paths outside /api/v1', () => {
  it('answer 404', async () => {
    const response = await fetch(sandbox.baseUrl.replace(/\/api\/v1$/, '/api/v2/ping'), {
      headers: { Authorization: 'Bearer key-a' },
    });
    expect(response.status).toBe(404);
  });
});
