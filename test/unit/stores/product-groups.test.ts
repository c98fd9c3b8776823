import { describe, expect, it } from 'vitest';
import {
  type BulkLine,
  type BulkProduct,
  productsOf,
} from '../../../src/sources/stores/shopify/product-groups.js';

const product = (n: number) => ({ id: `gid://shopify/Product/${n}`, handle: `p-${n}` });
const variant = (n: number, k: number) => ({
  id: `gid://shopify/ProductVariant/${n * 10 + k}`,
  sku: `P-${n}-${k}`,
  __parentId: `gid://shopify/Product/${n}`,
});
const image = (n: number) => ({
  id: `gid://shopify/MediaImage/${n}`,
  __parentId: `gid://shopify/Product/${n}`,
});

/** The objects as the file's lines, counting how many were read. */
function linesOf(objects: Array<Record<string, unknown>>) {
  const read = { count: 0 };
  async function* lines(): AsyncGenerator<BulkLine> {
    for (const [i, object] of objects.entries()) {
      read.count++;
      yield { line: i + 1, object, bytes: JSON.stringify(object).length };
    }
  }
  return { lines: lines(), read };
}

const shape = (products: BulkProduct[]) =>
  products.map((p) => [p.product.handle, p.variants.map((v) => v.sku), p.images.length]);

async function all(objects: Array<Record<string, unknown>>, maxHeldBytes?: number) {
  const got: BulkProduct[] = [];
  for await (const p of productsOf(linesOf(objects).lines, 'shop', maxHeldBytes)) got.push(p);
  return got;
}

const EXPECTED = [
  ['p-1', ['P-1-0', 'P-1-1'], 1],
  ['p-2', ['P-2-0'], 0],
  ['p-3', ['P-3-0'], 1],
];

describe('productsOf: the bulk file as products with their children', () => {
  it('grouped: each product is handed on once the next begins, one held at a time', async () => {
    const { lines, read } = linesOf([
      product(1),
      variant(1, 0),
      image(1),
      variant(1, 1),
      product(2),
      variant(2, 0),
      product(3),
      variant(3, 0),
      image(3),
    ]);
    const products = productsOf(lines, 'shop');
    const first = await products.next();
    expect(first.value?.product.handle).toBe('p-1');
    expect(read.count).toBe(5);
    const rest: BulkProduct[] = [];
    for await (const p of products) rest.push(p);
    expect(shape([first.value as BulkProduct, ...rest])).toEqual(EXPECTED);
  });

  it.each([
    [
      'every product, then every child',
      [
        product(1),
        product(2),
        product(3),
        variant(1, 0),
        variant(2, 0),
        image(1),
        variant(3, 0),
        variant(1, 1),
        image(3),
      ],
    ],
    [
      'children before their product',
      [
        variant(2, 0),
        variant(1, 0),
        product(1),
        image(1),
        product(3),
        variant(1, 1),
        image(3),
        product(2),
        variant(3, 0),
      ],
    ],
    [
      'a child of another product after the first ones',
      [
        product(1),
        variant(1, 0),
        image(1),
        variant(3, 0),
        product(3),
        variant(1, 1),
        product(2),
        image(3),
        variant(2, 0),
      ],
    ],
  ])('not grouped (%s), found before any product was handed on: joined', async (_name, objects) => {
    // In the order of the products' own lines.
    const got = shape(await all(objects));
    expect(got.map(([handle]) => handle)).toEqual(
      objects.flatMap((object) => ('handle' in object ? [object.handle] : [])),
    );
    expect(got.sort()).toEqual(EXPECTED);
  });

  it('not grouped, larger than the bytes it may hold: one line, no product handed on', async () => {
    const objects = [product(1), product(2), product(3), variant(1, 0), variant(2, 0), variant(3, 0)];
    await expect(all(objects, 200)).rejects.toThrow(
      'shop: the bulk result is not grouped by product as asked (groupObjects: true) and holds more than 200 bytes, more than is joined in memory: run again; nothing was sent',
    );
  });

  it('grouped at first, then a child of a product handed on already: one line, never a product cut silently', async () => {
    const got: BulkProduct[] = [];
    const reading = (async () => {
      const { lines } = linesOf([product(1), variant(1, 0), product(2), variant(2, 0), variant(1, 1)]);
      for await (const p of productsOf(lines, 'shop')) got.push(p);
    })();
    await expect(reading).rejects.toThrow(
      'shop: line 5 of the bulk result belongs to a product read before it: the file is not grouped by product as asked (groupObjects: true), so a product read before may lack some of its variants: run again',
    );
    expect(shape(got)).toEqual([['p-1', ['P-1-0'], 0]]);
  });

  it('a child whose product the file does not hold: one line naming its line', async () => {
    await expect(all([product(1), variant(1, 0), variant(4, 0)])).rejects.toThrow(
      'shop: line 3 of the bulk result names a product the file does not hold',
    );
  });

  it('a product without variant among grouped ones, once products were handed on, is handed on as it is', async () => {
    const got = await all([product(1), variant(1, 0), product(2), product(3), variant(3, 0)]);
    expect(shape(got)).toEqual([
      ['p-1', ['P-1-0'], 0],
      ['p-2', [], 0],
      ['p-3', ['P-3-0'], 0],
    ]);
  });
});
