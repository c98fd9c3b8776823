import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readById } from '../../../src/sources/stores/woocommerce/read-by-id.js';
import type { WooPage } from '../../../src/sources/stores/woocommerce/rest-api.js';

type Change = { kind: 'delete'; pick: number } | { kind: 'add' } | { kind: 'restore'; pick: number };

/**
 * A collection as WooCommerce pages it by `offset` in ascending id, at most `perPage` a page, with
 * X-WP-Total or without; before the n-th request, `changes[n]` are made to it (deletions, products
 * added with a new highest id, deleted ones restored from the trash with their old id).
 */
function changingStore(size: number, perPage: number, withTotal: boolean, changes: Change[][]) {
  let ids = Array.from({ length: size }, (_, i) => (i + 1) * 10);
  const deleted: number[] = [];
  let next = (size + 1) * 10;
  const everDeleted = new Set<number>();
  let requests = 0;
  let restored = 0;
  const pageAt = async (offset: number): Promise<WooPage> => {
    for (const change of changes[requests] ?? []) {
      if (change.kind === 'delete' && ids.length > 0) {
        const id = ids[change.pick % ids.length] as number;
        ids = ids.filter((other) => other !== id);
        deleted.push(id);
        everDeleted.add(id);
      } else if (change.kind === 'restore' && deleted.length > 0) {
        const [id] = deleted.splice(change.pick % deleted.length, 1);
        ids = [...ids, id as number].sort((a, b) => a - b);
        restored++;
      } else if (change.kind === 'add') {
        ids = [...ids, next];
        next += 10;
      }
    }
    requests++;
    const items = ids.slice(offset, offset + perPage).map((id) => ({ id }));
    return { items, total: withTotal ? ids.length : null, totalPages: null, next: null };
  };
  return {
    pageAt,
    /** The ids there from start to end of the read, never deleted meanwhile. */
    throughout: (start: number[]) => start.filter((id) => !everDeleted.has(id) && ids.includes(id)),
    start: () => [...ids],
    requests: () => requests,
    /** Deleted items restored, with their old id, while the read was under way. */
    restored: () => restored,
  };
}

async function idsRead(generator: AsyncGenerator<Record<string, unknown>>): Promise<number[]> {
  const read: number[] = [];
  for await (const item of generator) read.push(Number(item.id));
  return read;
}

const changeArb: fc.Arbitrary<Change> = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat(1000) }),
  fc.record({ kind: fc.constant('add' as const) }),
  fc.record({ kind: fc.constant('restore' as const), pick: fc.nat(1000) }),
);

describe('readById: a collection read by offset in ascending id while it changes', () => {
  it('hands on every item there throughout the read exactly once, in ascending id, whatever changes between pages', async () => {
    // Or, only when items were restored meanwhile (moved on the read position as a page out of place
    // would), ends in one line: positions cannot tell the two apart where X-WP-Total does not.
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 2, max: 8 }),
        fc.boolean(),
        fc.array(fc.array(changeArb, { maxLength: 6 }), { maxLength: 40 }),
        async (size, perPage, withTotal, changes) => {
          const store = changingStore(size, perPage, withTotal, changes);
          const start = store.start();

          let read: number[];
          try {
            read = await idsRead(readById(store.pageAt, 'store', '/products'));
          } catch (error) {
            expect(String(error)).toMatch(/gave only items read before|items of the \d+ the store counts/);
            expect(store.restored()).toBeGreaterThan(0);
            return;
          }

          expect(new Set(read).size).toBe(read.length);
          expect(read).toEqual([...read].sort((a, b) => a - b));
          for (const id of store.throughout(start)) expect(read).toContain(id);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('steps back 1, 2, 4… items when several were deleted before the next page', async () => {
    // 20 items, pages of 5: items 10 to 50 read, then 10 to 60 deleted before page 2.
    const store = changingStore(20, 5, true, [[], Array(6).fill({ kind: 'delete', pick: 0 })]);
    const offsets: number[] = [];
    const pageAt = (offset: number) => {
      offsets.push(offset);
      return store.pageAt(offset);
    };

    const read = await idsRead(readById(pageAt, 'store', '/products'));

    expect(read).toEqual([10, 20, 30, 40, 50, ...Array.from({ length: 14 }, (_, i) => (i + 7) * 10)]);
    // Page 2 at 4 began past 50 (at 110): back to 3, 2, then the start, which always joins.
    expect(offsets).toEqual([0, 4, 3, 2, 0, 4, 8, 12]);
  });

  it('a store that answers every offset with its first page (offset ignored by a cache or plugin) is one line, never a complete read', async () => {
    // 250 items by X-WP-Total, pages of 100, but every page is the first 100 (as a cache keyed without the query gives).
    const firstPage = async (): Promise<WooPage> => ({
      items: Array.from({ length: 100 }, (_, i) => ({ id: 1000 + i })),
      total: 250,
      totalPages: 3,
      next: null,
    });
    const withoutTotal = async (): Promise<WooPage> => ({
      ...(await firstPage()),
      total: null,
      totalPages: null,
    });
    const line =
      'shop.example: /products at offset 99 gave only items read before (100 of them): the store, or a cache or plugin before it, ' +
      'may ignore offset; the read stopped, part read only (--missing deactivates nothing)';

    await expect(idsRead(readById(firstPage, 'shop.example', '/products'))).rejects.toThrow(line);
    await expect(idsRead(readById(withoutTotal, 'shop.example', '/products'))).rejects.toThrow(line);
  });

  it('a read that ends with fewer items than X-WP-Total counts (the pages skip some) is one line, never a complete read', async () => {
    // 30 items by X-WP-Total, paged by their place among all 30, but the pages leave out item 5 (a
    // plugin hiding it, counted still): the pages after the first start before the last item read.
    const hiding = async (offset: number): Promise<WooPage> => ({
      items: Array.from({ length: 30 }, (_, i) => ({ id: i + 1 }))
        .slice(offset, offset + 10)
        .filter((item) => item.id !== 5),
      total: 30,
      totalPages: 3,
      next: null,
    });

    await expect(idsRead(readById(hiding, 'shop.example', '/products'))).rejects.toThrow(
      'shop.example: /products gave 29 items of the 30 the store counts (X-WP-Total) with none added meanwhile: ' +
        'a cache or plugin may change its pages; the read stopped, part read only (--missing deactivates nothing)',
    );
    // Not for the estimate's read (it deactivates nothing): its count is not checked.
    const estimate = readById(hiding, 'shop.example', '/products?type=variable', undefined, undefined, false);
    expect(await idsRead(estimate)).toHaveLength(29);
  });

  it('a store whose X-WP-Total counts too few (a cache keeps an old one) is read to its end all the same', async () => {
    // 250 items, pages of 100, X-WP-Total 120 on every page.
    const ids = Array.from({ length: 250 }, (_, i) => 1000 + i);
    const lowTotal = async (offset: number): Promise<WooPage> => ({
      items: ids.slice(offset, offset + 100).map((id) => ({ id })),
      total: 120,
      totalPages: 2,
      next: null,
    });

    expect(await idsRead(readById(lowTotal, 'shop.example', '/products'))).toEqual(ids);
  });

  it('a product gone before its variations are read has none (no page at all)', async () => {
    expect(await idsRead(readById(async () => null, 'store', '/products/7/variations'))).toEqual([]);
  });

  it('a store that does not answer in ascending id is one line: the read cannot be checked', async () => {
    const descending = async (): Promise<WooPage> => ({
      items: [{ id: 30 }, { id: 20 }],
      total: 2,
      totalPages: 1,
      next: null,
    });

    await expect(idsRead(readById(descending, 'shop.example', '/products'))).rejects.toThrow(
      'shop.example: /products did not come in ascending id as asked (orderby=id): a plugin may change the order',
    );
  });

  it('a store that keeps changing under the read past the bound ends it in one line', async () => {
    // Every request after the first: the items before the read position deleted, new ones added.
    let lowest = 1;
    const churning = async (offset: number): Promise<WooPage> => {
      if (offset > 0) lowest += 100;
      const items = Array.from({ length: 3 }, (_, i) => ({ id: lowest + offset + i }));
      return { items, total: 1000, totalPages: null, next: null };
    };

    await expect(idsRead(readById(churning, 'shop.example', '/products', undefined, 5))).rejects.toThrow(
      'shop.example: /products kept changing while it was read (5 pages read again after deletions): the read stopped, part read only (--missing deactivates nothing); run again once the store is quiet',
    );
  });
});
