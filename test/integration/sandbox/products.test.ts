import { describe, expect, it } from 'vitest';
import { dataOf, useSandboxServer } from './http-client.js';

const start = useSandboxServer();

describe('POST /products', () => {
  it('creates a product with an id, the fields given and timestamps, answering 201 {data}', async () => {
    const { call } = await start({ now: () => Date.UTC(2024, 4, 1) });
    const reply = await call('POST', '/products', { name: 'Lamp', price: 12.5, sku: 'L-1', tags: ['a'] });
    expect(reply.status).toBe(201);
    expect(dataOf(reply)).toEqual({
      id: expect.any(Number),
      name: 'Lamp',
      price: 12.5,
      sku: 'L-1',
      tags: ['a'],
      created_at: '2024-05-01T00:00:00.000Z',
      updated_at: '2024-05-01T00:00:00.000Z',
    });
    expect(reply.headers.get('location')).toMatch(/\/api\/v1\/products\?id=\d+$/);
  });

  it('answers 200 when told to', async () => {
    const { call } = await start({ createStatus: 200 });
    expect((await call('POST', '/products', { name: 'Lamp', price: 1 })).status).toBe(200);
  });

  it('answers with an empty body and a Location header when told to', async () => {
    const { call, sandbox, seller } = await start({ createBody: false });
    const reply = await call('POST', '/products', { name: 'Lamp', price: 1 });
    expect(reply.status).toBe(201);
    expect(reply.body).toBeUndefined();
    const [product] = sandbox.products(seller);
    expect(reply.headers.get('location')).toBe(`${sandbox.baseUrl}/products?id=${product?.id}`);
  });

  it('is also served as POST /seller/products (spec 4.3)', async () => {
    const { call, sandbox, seller } = await start();
    expect((await call('POST', '/seller/products', { name: 'Lamp', price: 1 })).status).toBe(201);
    expect(sandbox.products(seller)).toHaveLength(1);
  });
});

describe('when a body is invalid (spec 7: 400)', () => {
  it.each([
    ['invalid JSON', '{"name": "Lamp",', 'invalid_json', undefined],
    ['an array body', '[{"name": "Lamp", "price": 1}]', 'invalid_body', undefined],
    ['a string body', '"Lamp"', 'invalid_body', undefined],
    ['a missing name', '{"price": 1}', 'missing_field', 'name'],
    ['a missing price', '{"name": "Lamp"}', 'missing_field', 'price'],
    ['an empty name', '{"name": "  ", "price": 1}', 'invalid_field', 'name'],
    [
      'a name of 256 characters',
      JSON.stringify({ name: 'x'.repeat(256), price: 1 }),
      'invalid_field',
      'name',
    ],
    ['a price as a string', '{"name": "Lamp", "price": "12.50"}', 'invalid_field', 'price'],
    ['a negative price', '{"name": "Lamp", "price": -1}', 'invalid_field', 'price'],
    ['a price with three decimals', '{"name": "Lamp", "price": 1.005}', 'invalid_field', 'price'],
    ['a price above 1e9', '{"name": "Lamp", "price": 1000000000.01}', 'invalid_field', 'price'],
    ['a fractional quantity', '{"name": "Lamp", "price": 1, "quantity": 1.5}', 'invalid_field', 'quantity'],
    ['a negative quantity', '{"name": "Lamp", "price": 1, "quantity": -1}', 'invalid_field', 'quantity'],
    ['a null field', '{"name": "Lamp", "price": 1, "brand": null}', 'invalid_field', 'brand'],
    ['an object field', '{"name": "Lamp", "price": 1, "brand": {}}', 'invalid_field', 'brand'],
    ['an array of numbers', '{"name": "Lamp", "price": 1, "tags": [1]}', 'invalid_field', 'tags'],
    ['an id in the body', '{"id": 5, "name": "Lamp", "price": 1}', 'unknown_field', 'id'],
  ])('answers 400 to %s, naming the field, and creates nothing', async (_case, raw, code, field) => {
    const { call, sandbox, seller } = await start();
    const reply = await call('POST', '/products', undefined, { raw });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: { code, message: expect.any(String) } });
    const error = (reply.body as { error: { field?: string; message: string } }).error;
    expect(error.field).toBe(field);
    if (field) expect(error.message).toContain(field);
    expect(sandbox.products(seller)).toEqual([]);
  });

  it('answers 400 to an invalid field in an update and leaves the product as it was', async () => {
    const { call, sandbox, seller } = await start();
    const [id] = sandbox.seedProducts(seller, [{ name: 'Lamp', price: 1 }]);
    const reply = await call('PUT', `/products?id=${id}`, { price: 'free' });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: { field: 'price' } });
    expect(sandbox.products(seller)[0]).toMatchObject({ price: 1 });
  });

  it('answers 400 to a PUT without an id or with a non-numeric one', async () => {
    const { call } = await start();
    expect((await call('PUT', '/products', { name: 'x' })).status).toBe(400);
    expect((await call('PUT', '/products?id=abc', { name: 'x' })).status).toBe(400);
  });
});

describe('with accepted fields (spec 2.1)', () => {
  it('refuses any other field with 400 naming it, and accepts the listed ones', async () => {
    const { call } = await start({ acceptFields: ['name', 'price', 'sku'] });
    const refused = await call('POST', '/products', { name: 'Lamp', price: 1, colour: 'red' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: { code: 'unknown_field', field: 'colour' } });
    expect((await call('POST', '/products', { name: 'Lamp', price: 1, sku: 'L-1' })).status).toBe(201);
  });
});

describe('PUT /products?id=', () => {
  it('changes only the fields given and bumps updated_at', async () => {
    let clock = Date.UTC(2024, 0, 1);
    const { call, sandbox, seller } = await start({ now: () => clock });
    const [id] = sandbox.seedProducts(seller, [{ name: 'Lamp', price: 12.5, sku: 'L-1' }]);
    clock = Date.UTC(2024, 0, 2);
    const reply = await call('PUT', `/products?id=${id}`, { name: 'Desk lamp' });
    expect(reply.status).toBe(200);
    expect(dataOf(reply)).toEqual({
      id: Number(id),
      name: 'Desk lamp',
      price: 12.5,
      sku: 'L-1',
      created_at: '2024-01-01T00:00:00.000Z',
      updated_at: '2024-01-02T00:00:00.000Z',
    });
  });

  it('answers 404 for a product deleted on the marketplace', async () => {
    const { call, sandbox, seller } = await start();
    const [id] = sandbox.seedProducts(seller, [{ name: 'Lamp', price: 1 }]);
    sandbox.deleteProduct(seller, id!);
    expect((await call('PUT', `/products?id=${id}`, { name: 'x' })).status).toBe(404);
  });

  it('serves a change made by hand on the marketplace', async () => {
    const { call, sandbox, seller } = await start();
    const [id] = sandbox.seedProducts(seller, [{ name: 'Lamp', price: 1 }]);
    sandbox.editProduct(seller, id!, { price: 2 });
    expect(dataOf(await call('GET', `/products?id=${id}`))).toMatchObject({ name: 'Lamp', price: 2 });
  });
});

describe('with hidden fields', () => {
  it('stores them but never echoes them in a create, a single read or a list', async () => {
    const { call, sandbox, seller } = await start({ hideFields: ['sku'] });
    const created = await call('POST', '/products', { name: 'Lamp', price: 1, sku: 'L-1' });
    const id = dataOf(created).id;
    expect(dataOf(created)).not.toHaveProperty('sku');
    expect(dataOf(await call('GET', `/products?id=${id}`))).not.toHaveProperty('sku');
    const list = (await call('GET', '/products')).body as { data: object[] };
    expect(list.data[0]).not.toHaveProperty('sku');
    expect(sandbox.products(seller)[0]).toMatchObject({ sku: 'L-1' });
  });
});

describe('routes', () => {
  it.each([
    ['POST', '/orders'],
    ['PUT', '/orders?id=1'],
    ['DELETE', '/products?id=1'],
    ['POST', '/ping'],
  ])(
    'answers %s %s with 405 and an Allow header (orders are read-only, spec 4.1 rule 2)',
    async (method, path) => {
      const { call } = await start();
      const reply = await call(method, path, method === 'DELETE' ? undefined : { name: 'x', price: 1 });
      expect(reply.status).toBe(405);
      expect(reply.headers.get('allow')).toMatch(/GET/);
    },
  );

  it('answers 404 for an unknown endpoint', async () => {
    const { call } = await start();
    expect((await call('GET', '/widgets')).status).toBe(404);
  });

  it.each(['/categories', '/stores'])('serves GET %s as a small fixed list (spec 4.3)', async (path) => {
    const { call } = await start();
    const reply = await call('GET', path);
    expect(reply.status).toBe(200);
    expect((reply.body as { data: unknown[] }).data.length).toBeGreaterThan(0);
  });

  it('serves seeded, read-only orders, the same on every start', async () => {
    const options = { keys: [{ key: 'k', seller: 's' }], now: () => Date.UTC(2024, 0, 1) };
    const first = await start(options);
    const firstOrders = (await first.call('GET', '/orders')).body;
    await first.sandbox.close();
    const second = await start(options);
    const secondOrders = (await second.call('GET', '/seller/orders')).body as { data: Array<{ id: number }> };
    expect(secondOrders).toEqual(firstOrders);
    expect(secondOrders.data[0]).toMatchObject({ id: expect.any(Number), status: expect.any(String) });
    const single = await second.call('GET', `/orders?id=${secondOrders.data[0]?.id}`);
    expect(dataOf(single)).toEqual(secondOrders.data[0]);
  });
});
