import { SHOPIFY_POLL_FIRST_MS, SHOPIFY_POLL_MAX_MS } from '../../../defaults.js';
import { thousands } from '../../../thousands.js';
import { sourceError } from '../../source-error.js';
import { defaultSleep, type StoreReadOptions } from '../types.js';
import type { ShopifyAdminApi } from './admin-api.js';
import { POLL_BULK_QUERY, PRODUCTS_BULK_QUERY, RUN_BULK_MUTATION } from './bulk-query.js';

interface BulkOperation {
  id: string;
  status: string;
  errorCode?: string | null;
  objectCount?: string | number | null;
  url?: string | null;
}

/**
 * Starts the catalog's bulk operation and polls it (`node(id:)`) until Shopify has written its
 * file; resolves to the file's URL, or null when the shop holds no product (Shopify gives no file
 * then). FAILED, CANCELED and EXPIRED end the read in one line; `objectCount` is told as it grows.
 */
export async function runProductsBulkOperation(
  api: ShopifyAdminApi,
  label: string,
  options: Pick<StoreReadOptions, 'sleep' | 'onProgress'>,
): Promise<{ url: string | null; objects: number }> {
  const sleep = options.sleep ?? defaultSleep;
  const started = await api.query<{
    bulkOperationRunQuery?: {
      bulkOperation?: BulkOperation | null;
      userErrors?: Array<{ message?: string }>;
    };
  }>(RUN_BULK_MUTATION, { query: PRODUCTS_BULK_QUERY }, false);
  const run = started?.bulkOperationRunQuery;
  const refused = run?.userErrors?.[0]?.message;
  if (refused) throw sourceError(label, `Shopify did not start the bulk operation: ${refused.slice(0, 200)}`);
  const id = run?.bulkOperation?.id;
  if (!id) throw sourceError(label, 'Shopify did not start the bulk operation (no id in its answer)');

  let wait = SHOPIFY_POLL_FIRST_MS;
  let told = -1;
  for (;;) {
    const polled = await api.query<{ node?: BulkOperation | null }>(POLL_BULK_QUERY, { id });
    const operation = polled?.node;
    if (!operation) throw sourceError(label, `Shopify lost the bulk operation ${id}`);
    const objects = Number(operation.objectCount ?? 0) || 0;
    if (objects !== told) {
      told = objects;
      options.onProgress?.(
        `Shopify bulk operation ${operation.status.toLowerCase()}: ${thousands(objects)} objects`,
      );
    }
    switch (operation.status) {
      case 'COMPLETED':
        return { url: operation.url ?? null, objects };
      case 'FAILED':
        throw sourceError(
          label,
          `Shopify's bulk operation failed${operation.errorCode ? ` (${operation.errorCode})` : ''}: run again later; nothing was sent`,
        );
      case 'CANCELED':
      case 'CANCELING':
        throw sourceError(label, 'the bulk operation was canceled in the shop: run again; nothing was sent');
      case 'EXPIRED':
        throw sourceError(
          label,
          "the bulk operation's result expired before it was read: run again; nothing was sent",
        );
      default:
        await sleep(wait);
        wait = Math.min(SHOPIFY_POLL_MAX_MS, wait * 2);
    }
  }
}
