import { WOO_MAX_CATEGORIES } from '../../../defaults.js';
import { SourceError } from '../../source-error.js';
import type { RowEstimate } from '../../types.js';
import { readWooKeys } from '../credentials.js';
import { pricedIn, storeCurrencyLine } from '../store-currency.js';
import type { StoreRows } from '../store-rows.js';
import type { StoreAddress } from '../store-url.js';
import type { StoreReadOptions } from '../types.js';
import { categoryPaths, productRow, variationRow, WOO_EXPORT_COLUMNS } from './export-rows.js';
import { readById } from './read-by-id.js';
import { type WooPage, WooRestApi } from './rest-api.js';
import { readWooCurrency } from './store-currency.js';

/** The order every product and variation read is in: ascending id (read-by-id.ts says why). */
const BY_ID = { orderby: 'id', order: 'asc' } as const;

/** The export's cells in the store's currency (store-currency.ts pricedIn). */
const PRICE_COLUMNS = ['Regular price', 'Sale price'] as const;

/**
 * A WooCommerce store's catalog through the REST API v3: the categories first (for their paths),
 * then the products page by page, each variable product followed by its variations, as the rows of
 * the store's CSV export. The products and each product's variations are read in ascending id with
 * pages that overlap by one (read-by-id.ts), so a product deleted or added during the read moves
 * no other out of it nor into it twice. The first page is read here, so a wrong key ends the run
 * before any row. The prices are in the store's currency, read after the categories (a wrong key is
 * told there, as a read of the catalog): store-currency.ts.
 */
export async function readWooStore(store: StoreAddress, options: StoreReadOptions): Promise<StoreRows> {
  if (options.apiVersion !== undefined)
    throw new SourceError(
      `${store.display}: --source-api-version is Shopify's; a WooCommerce store is read with REST API v3`,
    );
  const credentials = readWooKeys(options.env, options.credentials, store.display);
  const api = new WooRestApi(store, credentials, options);
  const categories = (await api.list('/products/categories', WOO_MAX_CATEGORIES)).map((category) => ({
    id: category.id,
    name: category.name,
    parent: category.parent,
  }));
  const paths = categoryPaths(categories);
  const currency = await readWooCurrency(api);
  const label = store.display;
  const products = (query: Record<string, string>) => (offset: number) =>
    api.page('/products', { ...BY_ID, ...query, offset: String(offset) });
  const first = (await products({})(0)) as WooPage;

  async function* rows(): AsyncGenerator<Record<string, string>> {
    for await (const product of readById(products({}), label, '/products', first)) {
      yield pricedIn(productRow(product, paths), PRICE_COLUMNS, currency);
      if (product.type !== 'variable') continue;
      const path = `/products/${encodeURIComponent(String(product.id))}/variations`;
      const variations = (offset: number) => api.page(path, { ...BY_ID, offset: String(offset) });
      for await (const variation of readById(variations, label, path)) {
        yield pricedIn(variationRow(variation, product), PRICE_COLUMNS, currency);
      }
    }
  }
  return {
    preset: 'woocommerce',
    columns: [...WOO_EXPORT_COLUMNS],
    detections: [`store ${store.display} (WooCommerce REST API v3)`, storeCurrencyLine(currency)],
    rowEstimate: await countRows(api, first, label),
    rows: rows(),
  };
}

/**
 * The rows the store gives, counted before the read: a row per product (X-WP-Total) and one per
 * variation of each variable product (the `variations` ids a product lists), from the first page
 * when it holds the whole store, else from one read of the variable products alone, with only
 * those two fields (`_fields`: small pages). An upper bound of the run's rows unless products or
 * variations are added during the read. Null when the store sends no X-WP-Total.
 */
async function countRows(api: WooRestApi, first: WooPage, label: string): Promise<RowEstimate | null> {
  if (first.total === null) return null;
  const variable =
    first.items.length >= first.total
      ? first.items
      : readById(
          (offset) =>
            api.page('/products', {
              ...BY_ID,
              type: 'variable',
              _fields: 'id,type,variations',
              offset: String(offset),
            }),
          label,
          '/products?type=variable',
          undefined,
          undefined,
          false,
        );
  let variations = 0;
  for await (const product of variable)
    if (product.type === 'variable' && Array.isArray(product.variations))
      variations += product.variations.length;
  return {
    rows: first.total + variations,
    how: `counted in the store before the read: ${first.total} products and ${variations} variations`,
  };
}
