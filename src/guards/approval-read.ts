import type { Redis } from 'ioredis';
import { PlanStore } from '../plan/plan-store.js';
import { readsByIdCheaper } from '../revert/current-products.js';
import type { RedisKeys } from '../runs/keys.js';
import type { RunRecord, RunStore } from '../runs/run-store.js';
import { NotFoundError, type RemoteProduct, type SellerApiClient } from '../seller-api/index.js';
import { LIST_SKIPPED, markApprovalRead } from '../sync/incremental.js';
import { HeldRows } from './held-rows.js';
import { supersededOutcomes } from './superseded.js';

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
  const ids = await approvedProductIds(deps, run);
  // Within the catalog this tool's record holds: what the list read would show, as for --max-updates.
  const byId = ids.length === 0 || readsByIdCheaper(ids.length, await recordSize());
  await load(byId ? productsById(client, ids) : client.listProducts());
  await markApprovalRead(deps.redis, deps.keys, run.id);
  return { ids: ids.length, byId };
}

/**
 * The products the approved held updates of this round address: the rows `approve --rows` named, or
 * every row still held; less those a later run wrote since (they are not written at all).
 */
async function approvedProductIds(deps: ApprovalReadDeps, run: RunRecord): Promise<string[]> {
  const [named] = await deps.redis.hmget(deps.keys.run(run.id), 'approvalRows');
  const held = new HeldRows(deps.redis, deps.keys);
  const plans = new PlanStore(deps.redis, deps.keys);
  const ids = new Set<string>();
  let batch: number[] = [];
  const flush = async () => {
    const writes = await plans.get(run.id, [...(await held.heldAmong(run.id, batch))]);
    batch = [];
    const updates = [...writes.values()].filter((write) => write.action === 'update');
    const superseded = await supersededOutcomes(
      deps,
      run,
      updates.map((write) => write.upsert),
      writes,
    );
    const skipped = new Set(superseded.outcomes.map((outcome) => outcome.row));
    for (const write of updates)
      if (write.productId !== null && !skipped.has(write.upsert.row)) ids.add(write.productId);
  };
  const rows = named ? named.split(',').map(Number) : held.all(run.id, run.total);
  for await (const row of rows) {
    batch.push(row);
    if (batch.length >= BY_ID_PAGE * 10) await flush();
  }
  await flush();
  return [...ids];
}

/** The products with these ids, a page at a time; an id that answers 404 is gone (absent). */
async function* productsById(
  client: SellerApiClient,
  ids: readonly string[],
): AsyncGenerator<RemoteProduct[]> {
  for (let first = 0; first < ids.length; first += BY_ID_PAGE) {
    // The client's limiter (`--concurrency`) paces these.
    const page = await Promise.all(
      ids.slice(first, first + BY_ID_PAGE).map(async (id) => {
        try {
          return await client.getProduct(id);
        } catch (error) {
          if (error instanceof NotFoundError) return null;
          throw error;
        }
      }),
    );
    yield page.filter((product): product is RemoteProduct => product !== null);
  }
}
