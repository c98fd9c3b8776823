import { WOO_MAX_CATEGORIES } from '../../../defaults.js';
import { SourceError } from '../../source-error.js';
import { readWooKeys } from '../credentials.js';
import type { StoreRows } from '../store-rows.js';
import type { StoreAddress } from '../store-url.js';
import type { StoreReadOptions } from '../types.js';
import { categoryPaths, productRow, variationRow, WOO_EXPORT_COLUMNS } from './export-rows.js';
import { WooRestApi } from './rest-api.js';

/**
 * A WooCommerce store's catalog through the REST API v3: the categories first (for their paths),
 * then the products page by page, each variable product followed by its variations, as the rows of
 * the store's CSV export. The first page is read here, so a wrong key ends the run before any row.
 */
export async function readWooStore(store: StoreAddress, options: StoreReadOptions): Promise<StoreRows> {
  if (options.apiVersion !== undefined)
    throw new SourceError(
      `${store.display}: --source-api-version is Shopify's; a WooCommerce store is read with REST API v3`,
    );
  const credentials = readWooKeys(options.env, options.credentials, store.display);
  const api = new WooRestApi(store, credentials, options);
  const categories: Array<Record<string, unknown>> = [];
  for await (const category of api.all('/products/categories')) {
    if (categories.length >= WOO_MAX_CATEGORIES) break;
    categories.push({ id: category.id, name: category.name, parent: category.parent });
  }
  const paths = categoryPaths(categories);
  const now = () => (options.now ?? Date.now)();
  const first = await api.page('/products', 1);

  async function* rows(): AsyncGenerator<Record<string, string>> {
    for await (const product of api.all('/products', first)) {
      yield productRow(product, paths, now());
      if (product.type !== 'variable') continue;
      const id = String(product.id);
      for await (const variation of api.all(`/products/${encodeURIComponent(id)}/variations`)) {
        yield variationRow(variation, id, now());
      }
    }
  }
  return {
    preset: 'woocommerce',
    columns: [...WOO_EXPORT_COLUMNS],
    detections: [`store ${store.display} (WooCommerce REST API v3)`],
    // Products only: a variable product's variations are rows too, and are not counted here.
    rowEstimate:
      first.total === null
        ? null
        : { rows: first.total, how: "the store's X-WP-Total (products, without variations)" },
    rows: rows(),
  };
}
