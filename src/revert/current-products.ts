import { PRODUCTS_PER_PAGE_GUESS } from '../defaults.js';
import { NotFoundError, type SellerApiClient } from '../seller-api/index.js';

/** One GET per product when that takes fewer requests than the list read, by the run's count of products. */
export function readsByIdCheaper(productsToRead: number, productsAtRun: number): boolean {
  return productsToRead <= Math.max(1, Math.ceil(productsAtRun / PRODUCTS_PER_PAGE_GUESS));
}

/**
 * The products with these ids as the API shows them now (their fields, by id); an id that is not
 * among them any more is absent. Read by id (a 404 is "gone") or from every page of the list.
 */
export async function readCurrentProducts(
  client: SellerApiClient,
  ids: readonly string[],
  byId: boolean,
): Promise<Map<string, Record<string, unknown>>> {
  const current = new Map<string, Record<string, unknown>>();
  if (ids.length === 0) return current;
  if (byId) {
    // The client's limiter (`--concurrency`) paces these.
    await Promise.all(
      ids.map(async (id) => {
        try {
          current.set(id, (await client.getProduct(id)).fields);
        } catch (error) {
          if (!(error instanceof NotFoundError)) throw error;
        }
      }),
    );
    return current;
  }
  const wanted = new Set(ids);
  for await (const page of client.listProducts()) {
    for (const product of page) if (wanted.has(product.id)) current.set(product.id, product.fields);
  }
  return current;
}
