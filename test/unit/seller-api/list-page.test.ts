import { describe, expect, it } from 'vitest';
import { readListPage } from '../../../src/seller-api/list-page.js';

const first = new URL('https://api.example.com/api/v1/products');
const items = [
  { id: 1, name: 'Mug', price: '12.50' },
  { id: '2', name: 'Cap', price: 9 },
];
const expectedRecords = [
  { id: '1', fields: { id: 1, name: 'Mug', price: '12.50' } },
  { id: '2', fields: { id: '2', name: 'Cap', price: 9 } },
];

function read(body: unknown, link?: string, url = first) {
  const reading = readListPage(body, link, url);
  if (!reading.ok) throw new Error(`unexpected problem: ${reading.problem}`);
  return { records: reading.records, next: reading.next?.href ?? null };
}

describe('readListPage', () => {
  describe('reads the items of every list shape', () => {
    it.each([
      ['a bare array', items],
      ['an array under data', { data: items }],
      ['an array under items', { items }],
      ['an array under products', { products: items }],
      ['an array under orders', { orders: items }],
      ['an array under results', { results: items }],
      ['an array under records', { records: items }],
      ['an array nested one level', { data: { items } }],
      ['an array nested under data.products', { data: { products: items } }],
      ['items each wrapped in a product key', items.map((product) => ({ product }))],
    ])('from %s', (_name, body) => {
      expect(read(body).records).toEqual(expectedRecords);
    });

    it('keeps prices and every other field exactly as received', () => {
      const [record] = read([{ id: 5, price: '1299.00', tags: ['a'], nested: { x: 1 } }]).records;
      expect(record?.fields).toEqual({ id: 5, price: '1299.00', tags: ['a'], nested: { x: 1 } });
    });

    it('reads an empty list as an empty page with no next page', () => {
      expect(read({ data: [] })).toEqual({ records: [], next: null });
    });
  });

  describe('finds the next page', () => {
    it.each([
      ['meta.page and meta.last_page', { data: items, meta: { page: 1, last_page: 3 } }],
      ['current_page and last_page at the top', { data: items, current_page: 1, last_page: 3 }],
      ['page and total_pages', { items, page: 1, total_pages: 3 }],
      ['camelCase currentPage and totalPages', { items, currentPage: 1, totalPages: 3 }],
      ['a pagination object', { data: items, pagination: { current_page: 1, last_page: 3 } }],
      ['meta.pagination', { data: items, meta: { pagination: { page: 1, total_pages: 3 } } }],
      ['page numbers as strings', { data: items, meta: { page: '1', last_page: '3' } }],
      ['total and per_page', { data: items, meta: { page: 1, per_page: 2, total: 5 } }],
      ['has_more with a page number', { data: items, page: 1, has_more: true }],
      ['a next page number', { data: items, next_page: 2 }],
      ['pagination inside a nested wrapper', { data: { items, page: 1, total_pages: 2 } }],
    ])('from %s, as ?page=2 on the request URL', (_name, body) => {
      expect(read(body).next).toBe('https://api.example.com/api/v1/products?page=2');
    });

    it('keeps the other query parameters when asking for the next page number', () => {
      const url = new URL('https://api.example.com/api/v1/products?per_page=50&page=2');
      expect(read({ data: items, meta: { page: 2, last_page: 3 } }, undefined, url).next).toBe(
        'https://api.example.com/api/v1/products?per_page=50&page=3',
      );
    });

    it.each([
      ['next', { data: items, next: 'https://api.example.com/api/v1/products?cursor=abc' }],
      ['links.next', { data: items, links: { next: 'https://api.example.com/api/v1/products?cursor=abc' } }],
      ['next_page_url', { data: items, next_page_url: 'https://api.example.com/api/v1/products?cursor=abc' }],
      ['meta.next', { data: items, meta: { next: 'https://api.example.com/api/v1/products?cursor=abc' } }],
      ['_links.next.href', { items, _links: { next: { href: '/api/v1/products?cursor=abc' } } }],
      ['a relative next URL', { data: items, next: '?cursor=abc' }],
      ['a next URL relative to the path', { data: items, next: 'products?cursor=abc' }],
    ])('from a URL under %s, resolved against the request URL', (_name, body) => {
      expect(read(body).next).toBe('https://api.example.com/api/v1/products?cursor=abc');
    });

    it('prefers the body’s next URL over its page numbers', () => {
      const body = {
        data: items,
        links: { next: '/api/v1/products?cursor=x' },
        meta: { current_page: 1, last_page: 9 },
      };
      expect(read(body).next).toBe('https://api.example.com/api/v1/products?cursor=x');
    });

    it.each([
      [
        '<https://api.example.com/api/v1/products?page=2>; rel="next"',
        'https://api.example.com/api/v1/products?page=2',
      ],
      [
        '<https://api.example.com/api/v1/products?page=1>; rel="prev", <https://api.example.com/api/v1/products?page=3>; rel="next"',
        'https://api.example.com/api/v1/products?page=3',
      ],
      ['</api/v1/products?after=9>; rel=next', 'https://api.example.com/api/v1/products?after=9'],
      ['<?page=4>; title="more"; rel="next last"', 'https://api.example.com/api/v1/products?page=4'],
    ])('from the Link header %s', (link, expected) => {
      expect(read(items, link).next).toBe(expected);
    });

    it('returns a cross-origin next URL as is (the client refuses to follow it)', () => {
      expect(read({ data: items, next: 'https://evil.example/steal' }).next).toBe(
        'https://evil.example/steal',
      );
    });
  });

  describe('names the page after the next only when the last page is known', () => {
    const pageAfterNext = (body: unknown, link?: string) => {
      const reading = readListPage(body, link, first);
      if (!reading.ok) throw new Error(`unexpected problem: ${reading.problem}`);
      return reading.after?.href ?? null;
    };

    it('from page numbers up to last_page, total / per_page', () => {
      expect(pageAfterNext({ data: items, meta: { page: 1, last_page: 3 } })).toBe(`${first.href}?page=3`);
      expect(pageAfterNext({ data: items, meta: { page: 1, total: 250, per_page: 100 } })).toBe(
        `${first.href}?page=3`,
      );
    });

    it('not when the next page is the last', () => {
      expect(pageAfterNext({ data: items, meta: { page: 2, last_page: 3 } })).toBeNull();
    });

    it('not when only the answer can tell the next address (a next URL, a Link header, has_more)', () => {
      expect(pageAfterNext({ items, next: `${first.href}?cursor=abc` })).toBeNull();
      expect(
        pageAfterNext(items, `<${first.href}?page=2>; rel="next", <${first.href}?page=9>; rel="last"`),
      ).toBeNull();
      expect(pageAfterNext({ data: items, meta: { page: 1, has_more: true } })).toBeNull();
    });
  });

  describe('knows when there is no next page', () => {
    it.each([
      ['a bare array without a Link header', items, undefined],
      [
        'a Link header without rel=next',
        items,
        '<https://api.example.com/api/v1/products?page=1>; rel="prev"',
      ],
      ['the last page number', { data: items, meta: { page: 3, last_page: 3 } }, undefined],
      ['a page past the last', { data: [], meta: { page: 4, total_pages: 3 } }, undefined],
      ['total within the first page', { data: items, meta: { page: 1, per_page: 10, total: 2 } }, undefined],
      ['has_more false', { data: items, page: 1, has_more: false }, undefined],
      ['next null', { data: items, next: null, links: { next: null } }, undefined],
      ['next empty', { data: items, next_page_url: '' }, undefined],
      ['a page number without a last page', { data: items, page: 1 }, undefined],
      ['a wrapper without pagination', { products: items }, undefined],
    ])('from %s', (_name, body, link) => {
      expect(read(body, link).next).toBeNull();
    });
  });

  describe('says what is wrong with an answer it cannot read', () => {
    it.each([
      ['a string', 'hello', 'expected a list'],
      ['null', null, 'expected a list'],
      ['nothing', undefined, 'expected a list'],
      ['an object without a list', { message: 'ok' }, 'expected a list'],
      ['an item without an id', [{ id: 1 }, { name: 'no id' }], 'item 2 of the list has no usable id'],
      ['an item with a fractional id', [{ id: 1.5 }], 'item 1 of the list has no usable id'],
      ['an item that is not an object', [1, 2], 'item 1 of the list has no usable id'],
    ])('%s', (_name, body, problem) => {
      const reading = readListPage(body, undefined, first);
      expect(reading).toEqual({ ok: false, problem: expect.stringContaining(problem) });
    });

    it('refuses a page other than the one asked for (the API ignores ?page=)', () => {
      const url = new URL('https://api.example.com/api/v1/products?page=2');
      expect(readListPage({ data: items, meta: { page: 1, last_page: 3 } }, undefined, url)).toEqual({
        ok: false,
        problem: 'asked for page 2 but the answer says page 1',
      });
    });

    it('refuses a next link that is not a URL', () => {
      const reading = readListPage({ data: items, next: 'http://[bad' }, undefined, first);
      expect(reading).toEqual({ ok: false, problem: 'the next page link "http://[bad" is not a URL' });
    });
  });
});
