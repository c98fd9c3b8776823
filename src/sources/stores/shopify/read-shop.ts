import { thousands } from '../../../thousands.js';
import { SourceError } from '../../source-error.js';
import { readShopifyToken } from '../credentials.js';
import { pricedIn, storeCurrencyLine } from '../store-currency.js';
import type { StoreRows } from '../store-rows.js';
import type { StoreAddress } from '../store-url.js';
import type { StoreReadOptions } from '../types.js';
import { ShopifyAdminApi } from './admin-api.js';
import { type BulkSeen, runProductsBulkOperation } from './bulk-operation.js';
import { checkApiVersion, oneBulkQueryAtATime, quotedApiVersion, SHOPIFY_API_VERSION } from './bulk-query.js';
import { exportRows, SHOPIFY_EXPORT_COLUMNS } from './export-rows.js';
import { readBulkProducts } from './result-file.js';
import { readShopCurrency } from './shop-currency.js';

/** The export's cells in the shop's currency (store-currency.ts pricedIn). */
const PRICE_COLUMNS = ['Variant Price', 'Variant Compare At Price'] as const;

/**
 * A shop's catalog through the Admin GraphQL API: the bulk operation is run and waited for here
 * (a wrong token, a failed operation end the run before any row), then its file streams as the
 * rows of the shop's CSV export, its prices in the shop's currency (read first: shop-currency.ts).
 */
export async function readShop(store: StoreAddress, options: StoreReadOptions): Promise<StoreRows> {
  const version = options.apiVersion ?? SHOPIFY_API_VERSION;
  if (!checkApiVersion(version))
    throw new SourceError(
      `--source-api-version takes a Shopify API version such as ${SHOPIFY_API_VERSION}, ${quotedApiVersion(version)}`,
    );
  const credentials = readShopifyToken(options.env, options.credentials, store.display);
  const api = new ShopifyAdminApi(store, credentials, version, options);
  const currency = await readShopCurrency(api);
  // Absent a CLI to interrupt it, the wait runs as it is (a signal never aborted).
  const whilePreparing = options.whilePreparing ?? ((wait) => wait(new AbortController().signal));
  const seen: BulkSeen = { operation: null };
  const { url, objects, bytes, joined } = await whilePreparing(
    (signal) => runProductsBulkOperation(api, store.display, { ...options, signal, seen }),
    // Worded as the signal comes: Shopify may not have started any operation yet.
    () =>
      seen.operation === null && !api.changing
        ? notStartedLine(store.display)
        : interruptedLine(store.display, version),
  );
  async function* rows(): AsyncGenerator<Record<string, string>> {
    if (url === null) return;
    for await (const product of readBulkProducts(url, bytes, api.kind, store.display, options)) {
      for (const row of exportRows(product)) yield pricedIn(row, PRICE_COLUMNS, currency);
    }
  }
  return {
    preset: 'shopify',
    columns: [...SHOPIFY_EXPORT_COLUMNS],
    detections: [
      `store ${store.display} (Shopify Admin API ${version}, bulk operation of ${objects} objects${joined ? `, begun ${joined.begun} by another run` : ''})`,
      storeCurrencyLine(currency),
    ],
    rowEstimate:
      objects > 0
        ? {
            rows: objects,
            how: "the bulk operation's object count (products, variants, images)",
            // Rows are fewer (a product's variants and images share rows): counting them would read
            // the file twice. The plan says what its bound counts rather than take it for rows.
            overcounts: `the bulk operation's ${thousands(objects)} objects; rows are fewer`,
          }
        : null,
    rows: rows(),
  };
}

/**
 * A run stopped before Shopify started its operation (the start refused for now: a 429, a throttle,
 * an operation being canceled) and with no start request under way: none of it is left in the shop.
 */
function notStartedLine(label: string): string {
  return `before Shopify started the export of ${label}: nothing was sent, and no bulk operation of this run is left in the shop.`;
}

/**
 * What a run stopped while Shopify prepares the file leaves (docs/stores.md, "A Shopify bulk query
 * already running"): no request was sent, and the operation is never canceled on the way out.
 */
function interruptedLine(label: string, version: string): string {
  const next = oneBulkQueryAtATime(version)
    ? `its bulk operation goes on in the shop, and the next run joins it (while the shop serves API ${version}, which runs one at a time)`
    : `its bulk operation ends by itself in the shop, and the next run starts its own (API ${version} runs several at once)`;
  return `while Shopify prepared the export of ${label}: nothing was sent; ${next}.`;
}
