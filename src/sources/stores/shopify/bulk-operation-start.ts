import { SHOPIFY_POLL_FIRST_MS, SHOPIFY_POLL_MAX_MS } from '../../../defaults.js';
import { thousands } from '../../../thousands.js';
import { sourceError } from '../../source-error.js';
import { defaultSleep, type StoreReadOptions } from '../types.js';
import type { ShopifyAdminApi } from './admin-api.js';
import { bulkQueryShape, CURRENT_BULK_QUERY, PRODUCTS_BULK_QUERY, RUN_BULK_MUTATION } from './bulk-query.js';

export interface BulkOperation {
  id: string;
  status: string;
  errorCode?: string | null;
  objectCount?: string | number | null;
  /** The bytes of the file at `url` (UnsignedInt64, as a string). */
  fileSize?: string | number | null;
  url?: string | null;
  query?: string | null;
  createdAt?: string | null;
}

/** The operation this read waits for: its own, or one of another run of this tool, begun at `begun`. */
export interface WaitedOperation {
  id: string;
  joined: { begun: string } | null;
}

/**
 * Looks at the app's bulk query while a CANCELING one blocks a new one this many times (Shopify:
 * "a short delay" until it is CANCELED), waiting 1, 2, 4, 8, 10… s between: about a minute.
 */
const CANCELING_LOOKS = 8;

const OURS = bulkQueryShape(PRODUCTS_BULK_QUERY);

/**
 * Starts the catalog's bulk operation, or joins the one already running for it. Shopify runs one
 * bulk query per app and shop (before API 2026-01) and refuses a second while one is in progress:
 * the one a run that was killed or timed out left behind, or one of a run going on now. When its
 * query is this tool's, the read waits for it and uses its file (its work is not wasted, and
 * nothing else waits on a cancel); another query of the app is never touched: one line says what
 * runs and what to do. A CANCELING operation is waited out (it ends shortly), then this one starts.
 */
export async function startOrJoin(
  api: ShopifyAdminApi,
  label: string,
  options: Pick<StoreReadOptions, 'sleep' | 'onProgress'>,
): Promise<WaitedOperation> {
  const sleep = options.sleep ?? defaultSleep;
  let wait = SHOPIFY_POLL_FIRST_MS;
  let startedAgain = false;
  for (let attempt = 0; ; attempt++) {
    // Not a read: sent again only when its request never left (store-tries.ts).
    const started = await api.query<{
      bulkOperationRunQuery?: {
        bulkOperation?: BulkOperation | null;
        userErrors?: Array<{ message?: string | null }>;
      };
    }>(RUN_BULK_MUTATION, { query: PRODUCTS_BULK_QUERY }, false);
    const run = started?.bulkOperationRunQuery;
    const id = run?.bulkOperation?.id;
    if (id) return { id, joined: null };
    const refused = run?.userErrors?.map((error) => error.message?.trim() ?? '').find(Boolean);
    if (!refused) throw sourceError(label, 'Shopify did not start the bulk operation (no id in its answer)');

    // Whatever the refusal's wording: is a bulk query of this app in progress?
    const looked = await api.query<{ currentBulkOperation?: BulkOperation | null }>(CURRENT_BULK_QUERY);
    const current = looked?.currentBulkOperation ?? null;
    // Shopify's refusal names the operation in progress; when that one is done now, it ended between
    // the two calls: its file is as new as that of one still running.
    const named = /gid:\/\/shopify\/BulkOperation\/\d+/.exec(refused)?.[0];
    const justDone = current?.status === 'COMPLETED' && current.id === named;
    const running = current?.status === 'CREATED' || current?.status === 'RUNNING';
    if (current && (running || justDone) && bulkQueryShape(current.query ?? '') === OURS) {
      const begun = current.createdAt ?? 'earlier';
      options.onProgress?.(
        `Shopify bulk operation of another run already ${current.status.toLowerCase()} (begun ${begun}): using it`,
      );
      return { id: current.id, joined: { begun } };
    }
    if (current && running) throw sourceError(label, foreignLine(current));
    if (current?.status === 'CANCELING' && attempt < CANCELING_LOOKS) {
      options.onProgress?.(`Shopify is canceling bulk operation ${current.id}: waiting to start this one`);
      await sleep(wait);
      wait = Math.min(SHOPIFY_POLL_MAX_MS, wait * 2);
      continue;
    }
    // None in progress now: the one that was ended between the two calls (start again, once), or
    // the refusal is of another kind.
    if (!startedAgain && /in progress/i.test(refused)) {
      startedAgain = true;
      continue;
    }
    if (current?.status === 'CANCELING')
      throw sourceError(
        label,
        `Shopify is still canceling bulk operation ${current.id}: run again in a few minutes; nothing was sent`,
      );
    throw sourceError(label, `Shopify did not start the bulk operation: ${refused.slice(0, 200)}`);
  }
}

/** What runs instead (its id, since when, how far, the start of its query) and what to do. */
function foreignLine(current: BulkOperation): string {
  const shape = bulkQueryShape(current.query ?? '');
  const query = shape.length > 60 ? `${shape.slice(0, 60)}…` : shape;
  const objects = Number(current.objectCount ?? 0) || 0;
  return (
    `another bulk query of this app is ${current.status.toLowerCase()} in the shop (${current.id}` +
    `${current.createdAt ? `, begun ${current.createdAt}` : ''}, ${thousands(objects)} objects so far` +
    `${query ? `: ${query}` : ''}) and Shopify runs one at a time: run again once it has ended, ` +
    'or cancel it where it was started; nothing was sent'
  );
}
