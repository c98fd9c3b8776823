// The sandbox as a marketplace that keeps its own form of a product (`normalize`) and is choosy about
// updates (`updateFields`, `ignoreOnUpdate`), over real HTTP on loopback.
import { describe, expect, it } from 'vitest';
import { dataOf, useSandboxServer } from './http-client.js';

const start = useSandboxServer();

const listed = async (call: Awaited<ReturnType<typeof start>>['call']) =>
  ((await call('GET', '/products')).body as { data: Array<Record<string, unknown>> }).data;

describe('with normalize', () => {
  it('stores a create in its own form, and echoes, returns and lists that form', async () => {
    const { call } = await start({ normalize: true });
    const created = await call('POST', '/products', {
      name: '  Desk \t  lamp ',
      price: 1.005,
      tags: [' red ', '', 'blue'],
      sku: ' L-1 ',
    });
    expect(created.status).toBe(201);
    const stored = {
      name: 'Desk lamp',
      price: 1.01,
      tags: [{ name: 'red' }, { name: 'blue' }],
      sku: ' L-1 ',
    };
    expect(dataOf(created)).toMatchObject(stored);
    expect(dataOf(await call('GET', `/products?id=${dataOf(created).id}`))).toMatchObject(stored);
    expect(await listed(call)).toEqual([expect.objectContaining(stored)]);
  });

  it('stores an update in its own form too, and takes tags as a comma-separated string', async () => {
    const { call } = await start({ normalize: true });
    const id = dataOf(await call('POST', '/products', { name: 'Lamp', price: 12.5 })).id;
    const updated = await call('PUT', `/products?id=${id}`, {
      name: 'Big   lamp ',
      price: 0.1 + 0.2,
      tags: 'red, ,blue ',
    });
    expect(updated.status).toBe(200);
    const stored = { name: 'Big lamp', price: 0.3, tags: [{ name: 'red' }, { name: 'blue' }] };
    expect(dataOf(updated)).toMatchObject(stored);
    expect(await listed(call)).toEqual([expect.objectContaining(stored)]);
  });

  it('sends price as a JSON number, rounded half away from zero', async () => {
    const { call } = await start({ normalize: true });
    const reply = await call('POST', '/products', { name: 'Lamp', price: 19.999 });
    expect(reply.status).toBe(201);
    expect(dataOf(reply).price).toBe(20);
  });

  it('refuses tags that are neither strings nor an array of strings', async () => {
    const { call, sandbox, seller } = await start({ normalize: true });
    const reply = await call('POST', '/products', { name: 'Lamp', price: 1, tags: 3 });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: { code: 'invalid_field', field: 'tags' } });
    expect(sandbox.products(seller)).toEqual([]);
  });

  it('is off by default: what is sent is what is stored', async () => {
    const { call } = await start();
    const reply = await call('POST', '/products', { name: ' Lamp ', price: 1, tags: 'a,b' });
    expect(dataOf(reply)).toMatchObject({ name: ' Lamp ', tags: 'a,b' });
  });
});

describe('with update fields', () => {
  it('answers 400 naming every refused field, and applies nothing of that PUT', async () => {
    const { call, sandbox, seller } = await start({ updateFields: ['price', 'quantity'] });
    const id = dataOf(await call('POST', '/products', { name: 'Lamp', price: 1, sku: 'L-1' })).id;
    const before = sandbox.products(seller);

    const reply = await call('PUT', `/products?id=${id}`, { price: 2, name: 'Desk lamp', sku: 'L-2' });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({
      error: {
        code: 'not_updatable',
        message: 'name, sku: not accepted in an update',
        fields: ['name', 'sku'],
      },
    });
    expect(sandbox.products(seller)).toEqual(before);
  });

  it('names the field in `field` when only one is refused', async () => {
    const { call } = await start({ updateFields: ['price'] });
    const id = dataOf(await call('POST', '/products', { name: 'Lamp', price: 1 })).id;
    const reply = await call('PUT', `/products?id=${id}`, { name: 'Desk lamp' });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: { code: 'not_updatable', field: 'name', fields: ['name'] } });
  });

  it('applies a PUT of the listed fields, and leaves POST alone', async () => {
    const { call } = await start({ updateFields: ['price'] });
    const created = await call('POST', '/products', { name: 'Lamp', price: 1, sku: 'L-1' });
    expect(created.status).toBe(201);
    const reply = await call('PUT', `/products?id=${dataOf(created).id}`, { price: 3 });
    expect(reply.status).toBe(200);
    expect(dataOf(reply)).toMatchObject({ name: 'Lamp', price: 3, sku: 'L-1' });
  });
});

describe('with fields ignored on update', () => {
  it('answers 200, applies the other fields, and keeps (and shows) the old value of the ignored one', async () => {
    const { call, sandbox, seller } = await start({ ignoreOnUpdate: ['name'] });
    const id = dataOf(await call('POST', '/products', { name: 'Lamp', price: 1 })).id;

    const reply = await call('PUT', `/products?id=${id}`, { name: 'Desk lamp', price: 2 });
    expect(reply.status).toBe(200);
    expect(dataOf(reply)).toMatchObject({ name: 'Lamp', price: 2 });
    expect(dataOf(await call('GET', `/products?id=${id}`))).toMatchObject({ name: 'Lamp', price: 2 });
    expect(sandbox.products(seller)[0]).toMatchObject({ name: 'Lamp', price: 2 });
  });

  it('still takes the field on create', async () => {
    const { call } = await start({ ignoreOnUpdate: ['name'] });
    expect(dataOf(await call('POST', '/products', { name: 'Lamp', price: 1 }))).toMatchObject({
      name: 'Lamp',
    });
  });

  it('works with normalize: the applied fields are stored in the API form, the ignored ones untouched', async () => {
    const { call } = await start({ normalize: true, ignoreOnUpdate: ['tags'] });
    const id = dataOf(await call('POST', '/products', { name: 'Lamp', price: 1, tags: ['a'] })).id;
    const reply = await call('PUT', `/products?id=${id}`, { price: 2.345, tags: ['b'] });
    expect(reply.status).toBe(200);
    expect(dataOf(reply)).toMatchObject({ price: 2.35, tags: [{ name: 'a' }] });
  });
});
