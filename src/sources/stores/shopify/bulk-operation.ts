import { SHOPIFY_POLL_FIRST_MS, SHOPIFY_POLL_MAX_MS } from '../../../defaults.js';
import { thousands } from '../../../thousands.js';
import { sourceError } from '../../source-error.js';
import { defaultSleep, type StoreReadOptions, sleepOf } from '../types.js';
import type { ShopifyAdminApi } from './admin-api.js';
import { type BulkOperation, startOrJoin, type WaitedOperation } from './bulk-operation-start.js';
import { POLL_BULK_QUERY } from './bulk-query.js';

/** The catalog's file, once Shopify has written it; `joined` when another run had begun the operation. */
export interface BulkResult {
  url: string | null;
  objects: number;
  /** The file's size as Shopify gave it (`fileSize`): a file read shorter is not whole. Null: not given. */
  bytes: number | null;
  joined: { begun: string } | null;
}

/** The operation a read waits for once Shopify has given it (null until then), for its interrupt's line. */
export interface BulkSeen {
  operation: WaitedOperation | null;
}

/**
 * Starts the catalog's bulk operation, or joins the one of another run (bulk-operation-start.ts),
 * and polls it (`node(id:)`) until Shopify has written its file; resolves to the file's URL, or
 * null when the shop holds no product (Shopify gives no file then, and counts no object). FAILED, CANCELED and EXPIRED
 * end the read in one line; `objectCount` is told as it grows. A joined operation that its run
 * cancels (that run was stopped) is not this read's end: it starts its own, once.
 */
export async function runProductsBulkOperation(
  api: ShopifyAdminApi,
  label: string,
  given: Pick<StoreReadOptions, 'sleep' | 'onProgress'> & { signal?: AbortSignal; seen?: BulkSeen },
): Promise<BulkResult> {
  // A wait given up (the CLI was interrupted) polls no more: it ends at once.
  const sleep = sleepOf(given);
  const options = { ...given, sleep };
  for (let restarts = 0; ; restarts++) {
    // A joined operation that was canceled is no operation of this read's any more.
    if (given.seen) given.seen.operation = null;
    const operation = await startOrJoin(api, label, options);
    if (given.seen) given.seen.operation = operation;
    const result = await untilWritten(api, label, operation, options);
    if (result !== 'canceled') return result;
    if (restarts > 0) throw canceled(label);
  }
}

async function untilWritten(
  api: ShopifyAdminApi,
  label: string,
  { id, joined }: WaitedOperation,
  options: Pick<StoreReadOptions, 'sleep' | 'onProgress'>,
): Promise<BulkResult | 'canceled'> {
  const sleep = options.sleep ?? defaultSleep;
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
        // Shopify gives no `url` when the operation found no object (an empty shop). One that counted
        // objects and gives none is no empty shop: read as one, `--missing` would take every product
        // for gone. (`partialDataUrl` comes with a FAILED operation only: a part is never read.)
        if (!operation.url && objects > 0)
          throw sourceError(
            label,
            `Shopify's bulk operation completed with ${thousands(objects)} objects but gave no file to read them from: run again; nothing was sent`,
          );
        return { url: operation.url ?? null, objects, bytes: sizeOf(operation.fileSize), joined };
      case 'FAILED':
        throw sourceError(
          label,
          `Shopify's bulk operation failed${operation.errorCode ? ` (${operation.errorCode})` : ''}: run again later; nothing was sent`,
        );
      case 'CANCELED':
      case 'CANCELING':
        if (joined) return 'canceled';
        throw canceled(label);
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

function sizeOf(fileSize: BulkOperation['fileSize']): number | null {
  const bytes = Number(fileSize ?? Number.NaN);
  return Number.isSafeInteger(bytes) && bytes > 0 ? bytes : null;
}

function canceled(label: string) {
  return sourceError(label, 'the bulk operation was canceled in the shop: run again; nothing was sent');
}
