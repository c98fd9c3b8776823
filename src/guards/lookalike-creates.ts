import type { Redis } from 'ioredis';
import { RUN_TTL_SECONDS } from '../defaults.js';
import type { ProductUpsert } from '../interfaces.js';
import type { RedisKeys } from '../runs/keys.js';
import type { RowLookup } from '../sync/remote-index.js';
import type { RowSyncContext } from '../sync/row-sync-context.js';
import { nameKey } from '../sync/unrecorded-names.js';
import { planWrite } from './planned-writes.js';

/*
 * A row whose key the preset derived (no SKU in the file) finds the product made for it through the
 * ids this tool records alone: that key is never sent as the product's SKU. With the record lost (a
 * flushed Redis, a failover to an empty replica, a new Redis Cluster, another CATALOG_SYNC_PREFIX),
 * the re-run would create every such product a second time. So a create of such a row named as a
 * listed product that has no SKU and that the tool has no record of (sync/unrecorded-names.ts) holds
 * the whole run, as the other whole-run guards do (verdict.ts): nothing is sent until `approve`.
 */

/** Run record field: some row of the run looks like such a product (its lookalikes hash has it). */
export const LOOKALIKE_ROWS = 'lookalikeRows';

/** Run record field: a dry run's lookalike creates, what the real run would be held for (RunRecord.lookalikeWouldHold). */
export const LOOKALIKE_WOULD_HOLD = 'lookalikeWouldHold';

/** A create that looks like a product the tool may have made before its record was lost. */
export interface Lookalike {
  row: number;
  key: string;
  /** The row's name, as it would be sent. */
  name: string;
  /** The listed product of that name. */
  productId: string;
}

type CheckContext = Pick<RowSyncContext, 'runId' | 'index' | 'createOnly' | 'only' | 'keepRemote'>;

/**
 * Before a chunk's rows are planned (or, in a dry run, said): its creates of rows with a derived key
 * whose name a listed product without a SKU unknown to the tool has, recorded for the run's verdict.
 * Costs no command unless the run's list read found such products (RemoteIndex.listsUnrecorded) and
 * the chunk has a row with a derived key to create: then one look-up, and one write if any matches.
 */
export async function noteLookalikeCreates(
  deps: { redis: Redis; keys: RedisKeys },
  context: CheckContext,
  rows: readonly ProductUpsert[],
  lookups: ReadonlyMap<number, RowLookup>,
): Promise<void> {
  if (!context.index.listsUnrecorded) return;
  const creates = rows.flatMap((row) => {
    const name = row.derivedKey ? nameKey(row.fields.name) : null;
    if (name === null) return [];
    const write = planWrite(context, {}, row, lookups.get(row.row) ?? {});
    return write?.action === 'create' ? [{ row, name }] : [];
  });
  if (creates.length === 0) return;
  const ids = await deps.redis.hmget(
    deps.keys.unrecordedNames(context.runId),
    ...creates.map((create) => create.name),
  );
  const found: string[] = [];
  creates.forEach(({ row }, i) => {
    const productId = ids[i];
    if (!productId) return;
    const lookalike: Lookalike = { row: row.row, key: row.key, name: String(row.fields.name), productId };
    found.push(String(row.row), JSON.stringify(lookalike));
  });
  if (found.length === 0) return;
  const key = deps.keys.lookalikes(context.runId);
  await deps.redis
    .multi()
    .hset(key, ...found)
    .expire(key, RUN_TTL_SECONDS)
    .hset(deps.keys.run(context.runId), LOOKALIKE_ROWS, 1)
    .exec();
}

/** The run's lookalike creates (LOOKALIKE_ROWS set), in row order; none when it has none. */
export async function lookalikesOf(redis: Redis, keys: RedisKeys, runId: string): Promise<Lookalike[]> {
  const stored = await redis.hvals(keys.lookalikes(runId));
  return stored.map((json) => JSON.parse(json) as Lookalike).sort((a, b) => a.row - b.row);
}

/** How many rows and products the reason names; the rest are counted. */
const NAMED = 3;

/**
 * Why the run is held for them, or null for none: `row 12 (shopify:prod-5, "Café crème") looks
 * like product 345, which has no SKU and which this tool has no record of (its Redis record
 * lost?): creating it may duplicate it (approve creates it anyway)`.
 */
export function lookalikeText(lookalikes: readonly Lookalike[]): string | null {
  if (lookalikes.length === 0) return null;
  const oneRow = lookalikes.length === 1;
  const shown = lookalikes.slice(0, NAMED);
  const rows = listed(
    shown.map(({ row, key, name }) => `${row} (${key}, ${JSON.stringify(name)})`),
    lookalikes.length - shown.length,
  );
  const products = [...new Set(lookalikes.map((lookalike) => lookalike.productId))];
  const named = [...new Set(shown.map((lookalike) => lookalike.productId))];
  const oneProduct = products.length === 1;
  const productList = listed(named, products.length - named.length);
  const them = oneRow ? 'it' : 'them';
  return (
    `${oneRow ? 'row' : 'rows'} ${rows} ${oneRow ? 'looks' : 'look'} like ` +
    `${oneProduct ? 'product' : 'products'} ${productList}, ` +
    `which ${oneProduct ? 'has' : 'have'} no SKU and which this tool has no record of (its Redis record lost?): ` +
    `creating ${them} may duplicate ${oneProduct ? 'it' : 'them'} (approve creates ${them} anyway)`
  );
}

/** `1`, `1 and 2`, `1, 2, 3 and 5 more`. */
function listed(items: string[], more: number): string {
  const all = more > 0 ? [...items, `${more} more`] : [...items];
  if (all.length === 1) return all[0] ?? '';
  const last = all.pop();
  return `${all.join(', ')} and ${last}`;
}
