import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { InvalidResponseError } from '../../src/seller-api/index.js';
import { BASE_PATH, collect, fastRetry, ORIGIN, probeClient, rejection } from './seller-api-helpers.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => {
  nock.enableNetConnect();
  nock.restore();
});

const api = () => nock(ORIGIN);
const products = (...ids: Array<number | string>) => ids.map((id) => ({ id, name: `P${id}`, price: '9.90' }));
const ids = (pages: Array<Array<{ id: string }>>) => pages.map((page) => page.map((product) => product.id));

describe('listing products', () => {
  describe.each([
    ['a bare array', products(1, 2)],
    ['an array under data', { data: products(1, 2) }],
    ['an array under items', { items: products(1, 2) }],
    ['an array under products', { products: products(1, 2) }],
    ['an array under results', { results: products(1, 2) }],
    ['an array nested as data.items', { data: { items: products(1, 2) } }],
  ])('when the API answers %s', (_shape, body) => {
    it('yields one page of products with string ids and fields as received', async () => {
      api().get(`${BASE_PATH}/products`).reply(200, body);
      const { client } = probeClient();
      const pages = await collect(client.listProducts());
      expect(pages).toEqual([
        [
          { id: '1', fields: { id: 1, name: 'P1', price: '9.90' } },
          { id: '2', fields: { id: 2, name: 'P2', price: '9.90' } },
        ],
      ]);
    });
  });

  describe('when the API paginates', () => {
    it('follows page numbers in meta (page / last_page) to the last page', async () => {
      api()
        .get(`${BASE_PATH}/products`)
        .reply(200, { data: products(1, 2), meta: { page: 1, last_page: 3 } });
      api()
        .get(`${BASE_PATH}/products`)
        .query({ page: '2' })
        .reply(200, { data: products(3), meta: { page: 2, last_page: 3 } });
      api()
        .get(`${BASE_PATH}/products`)
        .query({ page: '3' })
        .reply(200, { data: products(4), meta: { page: 3, last_page: 3 } });
      const { client, requests } = probeClient();
      expect(ids(await collect(client.listProducts()))).toEqual([['1', '2'], ['3'], ['4']]);
      expect(requests.map((request) => request.path)).toEqual([
        '/products',
        '/products?page=2',
        '/products?page=3',
      ]);
    });

    /** The request for page `page` (page 1 is asked without ?page=); `numbered`: its body, naming the last page. */
    const numberedPage = (page: number) =>
      page === 1
        ? api().get(`${BASE_PATH}/products`)
        : api()
            .get(`${BASE_PATH}/products`)
            .query({ page: String(page) });
    const numbered = (page: number, lastPage: number, ...productIds: number[]) => ({
      data: products(...productIds),
      meta: { page, last_page: lastPage },
    });

    it('asks for the page after the next together with the next, when the last page is known', async () => {
      let page3Asked = () => {};
      const page3 = new Promise<void>((resolve) => {
        page3Asked = resolve;
      });
      let page3CameFirst = false;
      numberedPage(1).reply(200, numbered(1, 3, 1));
      // Page 2 is held until page 3 is asked for (or 2 s, and the test fails): one page at a time
      // would never ask for page 3 before page 2 has come.
      numberedPage(2).reply(async () => {
        page3CameFirst = await Promise.race([
          page3.then(() => true),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2_000)),
        ]);
        return [200, numbered(2, 3, 2)];
      });
      numberedPage(3).reply(() => {
        page3Asked();
        return [200, numbered(3, 3, 3)];
      });
      const { client, requests } = probeClient();
      expect(ids(await collect(client.listProducts()))).toEqual([['1'], ['2'], ['3']]);
      expect(page3CameFirst).toBe(true);
      expect(requests.map((request) => request.path).sort()).toEqual([
        '/products',
        '/products?page=2',
        '/products?page=3',
      ]);
    });

    it('drops a page asked for early when the list ends sooner (it shrank meanwhile)', async () => {
      numberedPage(1).reply(200, numbered(1, 3, 1));
      numberedPage(2).reply(200, numbered(2, 2, 2));
      const early = numberedPage(3).reply(200, numbered(3, 2));
      expect(ids(await collect(probeClient().client.listProducts()))).toEqual([['1'], ['2']]);
      expect(early.isDone()).toBe(true);
    });

    it('does not try an early page again once the reader has stopped', async () => {
      numberedPage(1).reply(200, numbered(1, 3, 1));
      numberedPage(2).reply(200, numbered(2, 3, 2));
      let page3Failed = () => {};
      const failed = new Promise<void>((resolve) => {
        page3Failed = resolve;
      });
      numberedPage(3).reply(() => {
        setImmediate(page3Failed);
        return [503, 'busy'];
      });
      const retried = numberedPage(3).reply(200, numbered(3, 3, 3));
      const { client, sleeps } = probeClient({ retry: fastRetry });
      const read: string[] = [];
      for await (const page of client.listProducts()) {
        read.push(...page.map((product) => product.id));
        if (read.includes('2')) break;
      }
      await failed;
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(read).toEqual(['1', '2']);
      expect(retried.isDone()).toBe(false);
      expect(sleeps.length).toBeLessThanOrEqual(1);
    });

    it('follows current_page / last_page at the top level (Laravel)', async () => {
      api()
        .get(`${BASE_PATH}/products`)
        .reply(200, { data: products(1), current_page: 1, last_page: 2 });
      api()
        .get(`${BASE_PATH}/products`)
        .query({ page: '2' })
        .reply(200, { data: products(2), current_page: 2, last_page: 2 });
      expect(ids(await collect(probeClient().client.listProducts()))).toEqual([['1'], ['2']]);
    });

    it('follows page / total_pages inside a pagination object', async () => {
      api()
        .get(`${BASE_PATH}/products`)
        .reply(200, { items: products(1), pagination: { page: 1, total_pages: 2 } });
      api()
        .get(`${BASE_PATH}/products`)
        .query({ page: '2' })
        .reply(200, { items: products(2), pagination: { page: 2, total_pages: 2 } });
      expect(ids(await collect(probeClient().client.listProducts()))).toEqual([['1'], ['2']]);
    });

    it.each([
      ['next (absolute)', (url: string) => ({ next: `${ORIGIN}${url}` })],
      ['next (relative)', (url: string) => ({ next: url })],
      ['links.next', (url: string) => ({ links: { next: `${ORIGIN}${url}` } })],
      ['next_page_url', (url: string) => ({ next_page_url: `${ORIGIN}${url}` })],
      ['meta.next', (url: string) => ({ meta: { next: url } })],
    ])('follows a next URL under %s until there is none', async (_where, nextOf) => {
      api()
        .get(`${BASE_PATH}/products`)
        .reply(200, { data: products(1), ...nextOf(`${BASE_PATH}/products?cursor=b`) });
      api()
        .get(`${BASE_PATH}/products`)
        .query({ cursor: 'b' })
        .reply(200, { data: products(2), ...nextOf(`${BASE_PATH}/products?cursor=c`) });
      api()
        .get(`${BASE_PATH}/products`)
        .query({ cursor: 'c' })
        .reply(200, { data: products(3), next: null });
      expect(ids(await collect(probeClient().client.listProducts()))).toEqual([['1'], ['2'], ['3']]);
    });

    it('follows a Link rel="next" header', async () => {
      api()
        .get(`${BASE_PATH}/products`)
        .reply(200, products(1), { Link: `<${ORIGIN}${BASE_PATH}/products?page=2>; rel="next"` });
      api()
        .get(`${BASE_PATH}/products`)
        .query({ page: '2' })
        .reply(200, products(2), { Link: `<${BASE_PATH}/products?page=1>; rel="prev"` });
      expect(ids(await collect(probeClient().client.listProducts()))).toEqual([['1'], ['2']]);
    });

    it('stops when a next URL points to a page already read', async () => {
      api()
        .get(`${BASE_PATH}/products`)
        .reply(200, { data: products(1), next: `${BASE_PATH}/products?page=2` });
      api()
        .get(`${BASE_PATH}/products`)
        .query({ page: '2' })
        .reply(200, { data: products(2), next: `${BASE_PATH}/products` });
      const { client, requests } = probeClient();
      expect(ids(await collect(client.listProducts()))).toEqual([['1'], ['2']]);
      expect(requests).toHaveLength(2);
    });

    it('refuses a next URL on another origin, so the key goes nowhere else', async () => {
      api()
        .get(`${BASE_PATH}/products`)
        .reply(200, { data: products(1), next: 'https://collector.example/api/v1/products' });
      const elsewhere = nock('https://collector.example')
        .get(() => true)
        .reply(200, []);
      const { client } = probeClient();
      const pages: unknown[] = [];
      const error = await rejection(
        (async () => {
          for await (const page of client.listProducts()) pages.push(page);
        })(),
      );
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect(error.message).toContain('the next page is on another origin (https://collector.example)');
      expect(pages).toHaveLength(1);
      expect(elsewhere.isDone()).toBe(false);
    });

    it('refuses a plain-http next URL on the same host (another origin)', async () => {
      api()
        .get(`${BASE_PATH}/products`)
        .reply(200, { data: products(1), next: 'http://api.example.com/api/v1/products?page=2' });
      const error = await rejection(collect(probeClient().client.listProducts()));
      expect(error.message).toContain('another origin (http://api.example.com)');
    });

    it('refuses to go on when the API ignores ?page= and answers page 1 again', async () => {
      api()
        .get(`${BASE_PATH}/products`)
        .reply(200, { data: products(1), meta: { page: 1, last_page: 5 } });
      api()
        .get(`${BASE_PATH}/products`)
        .query({ page: '2' })
        .reply(200, { data: products(1), meta: { page: 1, last_page: 5 } });
      const error = await rejection(collect(probeClient().client.listProducts()));
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect(error.message).toBe(
        'GET /products?page=2: 200 invalid response: asked for page 2 but the answer says page 1',
      );
    });
  });

  describe('when a page cannot be read', () => {
    it('fails with an InvalidResponseError on broken JSON', async () => {
      api().get(`${BASE_PATH}/products`).reply(200, '[{"id": 1,', { 'Content-Type': 'application/json' });
      const error = await rejection(collect(probeClient().client.listProducts()));
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect(error.message).toMatch(/^GET \/products: 200 invalid response: the body is not valid JSON/);
    });

    it('retries broken JSON under a retry policy and reads the page that follows', async () => {
      api().get(`${BASE_PATH}/products`).reply(200, '[{"id": 1,');
      api().get(`${BASE_PATH}/products`).reply(200, products(1));
      const { client, sleeps } = probeClient({ retry: fastRetry });
      expect(ids(await collect(client.listProducts()))).toEqual([['1']]);
      expect(sleeps).toEqual([50]);
    });

    it('names the item without an id', async () => {
      api()
        .get(`${BASE_PATH}/products`)
        .reply(200, { data: [{ id: 1 }, { sku: 'A' }] });
      const error = await rejection(collect(probeClient({ retry: fastRetry }).client.listProducts()));
      expect(error.message).toBe('GET /products: 200 invalid response: item 2 of the list has no usable id');
    });
  });
});

describe('listing orders', () => {
  it('reads every page of /orders', async () => {
    api()
      .get(`${BASE_PATH}/orders`)
      .reply(200, { orders: [{ id: 10, total: '5.00' }], meta: { page: 1, total_pages: 2 } });
    api()
      .get(`${BASE_PATH}/orders`)
      .query({ page: '2' })
      .reply(200, { orders: [{ id: '11', total: 7 }], meta: { page: 2, total_pages: 2 } });
    const pages = await collect(probeClient().client.listOrders());
    expect(pages).toEqual([
      [{ id: '10', fields: { id: 10, total: '5.00' } }],
      [{ id: '11', fields: { id: '11', total: 7 } }],
    ]);
  });
});
