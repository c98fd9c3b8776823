import type { Redis } from 'ioredis';
import { PlanStore } from '../plan/plan-store.js';
import { readsByIdCheaper } from '../revert/current-products.js';
import type { RedisKeys } from '../runs/keys.js';
import type { RunRecord, RunStore } from '../runs/run-store.js';
import { NotFoundError, type RemoteProduct, type SellerApiClient } from '../seller-api/index.js';
import { LIST_SKIPPED, markApprovalRead } from '../sync/incremental.js';
import { HeldRows } from './held-rows.js';
import { supersededOutcomes } from './superseded.js';

/** Run record field: how many products the run listed (runs/ended-run.ts, queue/approval.ts). */
export const PRODUCTS_LISTED = 'productsListed';

/**
 * What a load of a run's index of the seller's products is for: the run's own rows, or an
 * `approve` of its held ones (once an approval began, every load is one: each approval drops the
 * index, queue/approval.ts). An approval re-checks the held writes against the products as they
 * are then, so it never relies on the tool's record; an approval of an `--incremental` run that read
 * no product reads only the held products (`approval-unread`, readApprovedProducts).
 */
export type IndexLoad = 'run' | 'approval' | 'approval-unread';

export async function indexLoadOf(redis: Redis, keys: RedisKeys, runId: string): Promise<IndexLoad> {
  const [approvals, skipped] = await redis.hmget(keys.run(runId), 'approvals', LIST_SKIPPED);
  if (!(Number(approvals ?? 0) > 0)) return 'run';
  return skipped === '1' ? 'approval-unread' : 'approval';
}

interface ApprovalReadDeps {
  redis: Redis;
  keys: RedisKeys;
  runs: RunStore;
}

/** Held products read by id are written to the index this many at a time. */
const BY_ID_PAGE = 100;

/**
 * For the approval of an `--incremental` run that read no product: the products its approved held
 * updates address, read into the run's index, by id (a GET each) or by every page of the list,
 * whichever takes fewer requests (as `revert` reads). The rows then diff against them as a run that
 * read the list does: a product that shows the source's value already is not written, one gone is
 * created again without a PUT first. Resolves to how many products it read, and how, for the log.
 */
export async function readApprovedProducts(
  deps: ApprovalReadDeps,
  run: RunRecord,
  client: SellerApiClient,
  load: (pages: AsyncIterable<RemoteProduct[]>) => Promise<unknown>,
  recordSize: () => Promise<number>,
): Promise<{ ids: number; byId: boolean }> {
  const { ids } = await approvedProductIds(deps, run);
  // Within the catalog this tool's record holds: what the list read would show, as for --max-updates.
  const byId = ids.length === 0 || readsByIdCheaper(ids.length, await recordSize());
  await load(byId ? productsById(client, ids) : client.listProducts());
  await markApprovalRead(deps.redis, deps.keys, run.id);
  return { ids: ids.length, byId };
}

/**
 * The products the approved held updates of this round address: the rows `approve --rows` named, or
 * every row still held; less those a later run wrote since (they are not written at all). `creates`:
 * whether an approved held create is among them (found only by its key: in the list).
 */
async function approvedProductIds(
  deps: ApprovalReadDeps,
  run: RunRecord,
): Promise<{ ids: string[]; creates: boolean }> {
  const [named] = await deps.redis.hmget(deps.keys.run(run.id), 'approvalRows');
  const held = new HeldRows(deps.redis, deps.keys);
  const plans = new PlanStore(deps.redis, deps.keys);
  const ids = new Set<string>();
  let creates = false;
  let batch: number[] = [];
  const flush = async () => {
    const writes = await plans.get(run.id, [...(await held.heldAmong(run.id, batch))]);
    batch = [];
    const superseded = await supersededOutcomes(
      deps,
      run,
      [...writes.values()].map((write) => write.upsert),
      writes,
    );
    const skipped = new Set(superseded.outcomes.map((outcome) => outcome.row));
    for (const write of writes.values()) {
      if (skipped.has(write.upsert.row)) continue;
      if (write.action === 'update' && write.productId !== null) ids.add(write.productId);
      else creates = true;
    }
  };
  const rows = named ? named.split(',').map(Number) : held.all(run.id, run.total);
  for await (const row of rows) {
    batch.push(row);
    if (batch.length >= BY_ID_PAGE * 10) await flush();
  }
  await flush();
  return { ids: [...ids], creates };
}

/** The products with these ids, a page at a time; an id that answers 404 is gone (absent). */
async function* productsById(
  client: SellerApiClient,
  ids: readonly string[],
  gone: { count: number } = { count: 0 },
): AsyncGenerator<RemoteProduct[]> {
  for (let first = 0; first < ids.length; first += BY_ID_PAGE) {
    // The client's limiter (`--concurrency`) paces these.
    const page = await Promise.all(
      ids.slice(first, first + BY_ID_PAGE).map(async (id) => {
        try {
          return await client.getProduct(id);
        } catch (error) {
          if (!(error instanceof NotFoundError)) throw error;
          gone.count += 1;
          return null;
        }
      }),
    );
    yield page.filter((product): product is RemoteProduct => product !== null);
  }
}

/**
 * For the approval of a run that read the seller's products (not `--incremental`, or one that read
 * them): the products its approved held updates (and the held deactivations it sends) address, read
 * into the run's index by id, when that takes fewer requests than every page of the list (as
 * `revert` reads, sized on the products the run listed: `productsListed`, kept as the approval
 * began). False when the list is to be read instead: a held create is approved (only the list tells
 * whether a product was made meanwhile under its key: it is not made twice), reading by id costs
 * more, the run's count of products is unknown, or a product read by id is gone (404): the update
 * would create it again, so the list is read to find one listed under its key first.
 */
export async function readApprovedById(
  deps: ApprovalReadDeps,
  run: RunRecord,
  client: SellerApiClient,
  load: (pages: AsyncIterable<RemoteProduct[]>) => Promise<unknown>,
): Promise<{ ids: number } | false> {
  const [listed] = await deps.redis.hmget(deps.keys.run(run.id), PRODUCTS_LISTED);
  if (listed === null) return false;
  const { ids, creates } = await approvedProductIds(deps, run);
  if (creates) return false;
  const due = await deps.redis.hlen(deps.keys.deactivations(run.id));
  if (!readsByIdCheaper(ids.length + due, Number(listed))) return false;
  const all =
    due > 0 ? [...new Set([...ids, ...(await deps.redis.hkeys(deps.keys.deactivations(run.id)))])] : ids;
  const gone = { count: 0 };
  await load(productsById(client, all, gone));
  return gone.count > 0 ? false : { ids: all.length };
}
