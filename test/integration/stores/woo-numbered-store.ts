import type {
  WooDouble,
  WooListRequest,
  WooProduct,
  WooVariation,
} from '../../../src/sources/stores/woocommerce/double.js';

/**
 * A store of `count` simple products `W-1`… (id = number, stock 5), every tenth a variable product
 * with three variations (`W-10-A`…, stock 2): the shape a tester's store had.
 */
export function numberedWooStore(count: number): WooProduct[] {
  return Array.from({ length: count }, (_, i) => numberedProduct(i + 1));
}

export function numberedProduct(n: number): WooProduct {
  const base = { id: n, name: `Product ${n}`, status: 'publish', sku: `W-${n}` } as const;
  if (n % 10 !== 0)
    return { ...base, type: 'simple', regular_price: '10.00', manage_stock: true, stock_quantity: 5 };
  const variations = ['A', 'B', 'C'].map(
    (size, k): WooVariation => ({
      id: 100_000 + n * 10 + k,
      name: `Product ${n} - ${size}`,
      sku: `W-${n}-${size}`,
      status: 'publish',
      regular_price: '12.00',
      manage_stock: true,
      stock_quantity: 2,
      attributes: [{ name: 'Size', option: size }],
    }),
  );
  return {
    ...base,
    type: 'variable',
    attributes: [{ name: 'Size', options: ['A', 'B', 'C'], variation: true }],
    variations,
  };
}

/** `n` simple products `P-1`… (id 1000 on, at 9.50 each, 5 in stock): pages of 100 as the store serves them. */
export function simpleWooStore(n: number): WooProduct[] {
  return Array.from({ length: n }, (_, i) => ({
    id: 1000 + i,
    name: `Product ${i + 1}`,
    type: 'simple' as const,
    status: 'publish' as const,
    sku: `P-${i + 1}`,
    regular_price: '9.50',
    manage_stock: true,
    stock_quantity: 5,
    stock_status: 'instock' as const,
  }));
}

/** Runs `change` on the store's products once, just before the `nth` page of products is served. */
export function beforeProductPage(
  store: WooDouble,
  nth: number,
  change: (products: WooProduct[]) => void,
): void {
  let served = 0;
  store.seams.beforeList = (request: WooListRequest, products) => {
    if (request.collection !== 'products' || request.params.has('type')) return;
    served++;
    if (served === nth) change(products);
  };
}

/** Removes the product of id `id` from the store, as a deletion (or a move to the trash) does. */
export function deleteProduct(products: WooProduct[], id: number): void {
  const at = products.findIndex((product) => product.id === id);
  if (at < 0) throw new Error(`no product ${id}`);
  products.splice(at, 1);
}
