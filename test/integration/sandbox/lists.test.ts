import { get } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type ListShape, type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { clientFor, type Reply } from './http-client.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

type Item = { id: number };

/** Reads every page the way a client of that list shape must, and counts the requests. */
async function walk(call: ReturnType<typeof clientFor>, shape: ListShape, path: string) {
  const items: Item[] = [];
  let requests = 0;
  let next: string | null = path;
  let page = 1;
  while (next !== null) {
    const reply: Reply = await call('GET', next);
    requests += 1;
    expect(reply.status).toBe(200);
    next = null;
    if (shape === 'page-meta') {
      const body = reply.body as { data: Item[]; meta: { page: number; last_page: number } };
      items.push(...body.data);
      expect(body.meta.page).toBe(page);
      if (page < body.meta.last_page) next = `${path}?page=${++page}`;
    } else if (shape === 'next-url') {
      const body = reply.body as { items: Item[]; next: string | null };
      items.push(...body.items);
      next = body.next;
    } else {
      items.push(...(reply.body as Item[]));
      if (shape === 'link-header')
        next = /<([^>]+)>;\s*rel="next"/.exec(reply.headers.get('link') ?? '')?.[1] ?? null;
    }
  }
  return { items, requests };
}

describe.each([
  ['page-meta', 3],
  ['next-url', 3],
  ['link-header', 3],
  ['bare', 1],
] as const)('with list shape %s', (shape, expectedRequests) => {
  it('walks every product page to the end, each once, in id order', async () => {
    sandbox = await startSandbox({ listShape: shape, pageSize: 3 });
    const ids = sandbox.seedProducts(
      sandbox.defaultKey.seller,
      Array.from({ length: 7 }, (_, i) => ({ name: `P${i}`, price: i })),
    );
    const { items, requests } = await walk(clientFor(sandbox), shape, '/products');
    expect(items.map((item) => String(item.id))).toEqual(ids);
    expect(requests).toBe(expectedRequests);
  });

  it('walks every order page to the end', async () => {
    sandbox = await startSandbox({ listShape: shape, pageSize: 2, ordersPerSeller: 5 });
    const { items } = await walk(clientFor(sandbox), shape, '/orders');
    expect(new Set(items.map((item) => item.id)).size).toBe(5);
  });

  it('answers an empty list as one page', async () => {
    sandbox = await startSandbox({ listShape: shape, pageSize: 3 });
    const { items, requests } = await walk(clientFor(sandbox), shape, '/products');
    expect(items).toEqual([]);
    expect(requests).toBe(1);
  });
});

describe('with list shape page-meta', () => {
  it('describes the pages in meta', async () => {
    sandbox = await startSandbox({ pageSize: 3 });
    sandbox.seedProducts(
      sandbox.defaultKey.seller,
      Array.from({ length: 7 }, (_, i) => ({ name: `P${i}`, price: i })),
    );
    const reply = await clientFor(sandbox)('GET', '/products?page=3');
    expect(reply.body).toMatchObject({
      data: [expect.any(Object)],
      meta: { page: 3, per_page: 3, total: 7, last_page: 3 },
    });
  });

  it('answers a page past the last with no data', async () => {
    sandbox = await startSandbox({ pageSize: 3 });
    const reply = await clientFor(sandbox)('GET', '/products?page=9');
    expect(reply.body).toMatchObject({ data: [], meta: { total: 0 } });
  });

  it.each(['0', '-1', 'two'])('answers 400 to page=%s', async (page) => {
    sandbox = await startSandbox();
    expect((await clientFor(sandbox)('GET', `/products?page=${page}`)).status).toBe(400);
  });
});

describe('with list shape link-header', () => {
  it('also names the last page, and drops the Link header on it', async () => {
    sandbox = await startSandbox({ listShape: 'link-header', pageSize: 2 });
    sandbox.seedProducts(
      sandbox.defaultKey.seller,
      Array.from({ length: 5 }, (_, i) => ({ name: `P${i}`, price: i })),
    );
    const call = clientFor(sandbox);
    expect((await call('GET', '/products')).headers.get('link')).toContain(
      `<${sandbox.baseUrl}/products?page=3>; rel="last"`,
    );
    expect((await call('GET', '/products?page=3')).headers.get('link')).toBeNull();
  });
});

describe('with list shape next-url', () => {
  it('builds the next URL on the host the client addressed', async () => {
    sandbox = await startSandbox({ listShape: 'next-url', pageSize: 1 });
    sandbox.seedProducts(sandbox.defaultKey.seller, [
      { name: 'A', price: 1 },
      { name: 'B', price: 1 },
    ]);
    const body = await new Promise<string>((resolve, reject) => {
      const headers = { Host: 'localhost:4010', Authorization: `Bearer ${sandbox?.defaultKey.key}` };
      get(`${sandbox?.baseUrl}/products`, { headers }, (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve(text));
      }).on('error', reject);
    });
    expect((JSON.parse(body) as { next: string }).next).toMatch(
      /^http:\/\/localhost:4010\/api\/v1\/products\?cursor=/,
    );
  });

  it('answers 400 to a cursor it did not give', async () => {
    sandbox = await startSandbox({ listShape: 'next-url' });
    expect((await clientFor(sandbox)('GET', '/products?cursor=bogus')).status).toBe(400);
  });
});
