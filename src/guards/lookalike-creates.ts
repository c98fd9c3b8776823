import type { Redis } from 'ioredis';
import { RUN_TTL_SECONDS } from '../defaults.js';
import type { ProductUpsert } from '../interfaces.js';
import type { RedisKeys } from '../runs/keys.js';
import type { RunRecord } from '../runs/run-record.js';
import type { RowLookup } from '../sync/remote-index.js';
import type { RowSyncContext } from '../sync/row-sync-context.js';
import { IDS_PER_COMMAND, nameKey } from '../sync/unrecorded-names.js';
import { type ListedKeyCreate, listedKeyCreates, listedKeyText } from './listed-key-creates.js';
import { planWrite } from './planned-writes.js';

/*
 * A row whose key the preset derived (no SKU in the file) finds the product made for it through the
 * ids this tool records alone: that key is never sent as the product's SKU. With the record lost (a
 * flushed Redis, a failover to an empty replica, a new Redis Cluster, another CATALOG_SYNC_PREFIX),
 * the re-run would create every such product a second time. So a create of such a row named as a
 * listed product that has no SKU and that the tool has no record of (sync/unrecorded-names.ts) holds
 * the whole run, as the other whole-run guards do (verdict.ts): nothing is sent until `approve`.
 * Such a product may as well have been made elsewhere (by hand, by another app: a first migration
 * onto an account that has some): once the seller approved past it, it holds no run again
 * (rememberApproved).
 * A run matched by another field is held so for a create of a value a listed product has
 * (listed-key-creates.ts); both are kept in the run's lookalikes hash.
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
  /** The listed products of that name (each without a SKU, unknown to the tool, not approved past). */
  productIds: string[];
}

/** A lookalike as stored; one stored by an earlier version names its first product alone. */
type StoredLookalike = Omit<Lookalike, 'productIds'> & { productIds?: string[]; productId?: string };

/** A create the run is held for: named as a listed product without a SKU, or with a listed value. */
export type HeldCreate = Lookalike | ListedKeyCreate;

type CheckContext = Pick<
  RowSyncContext,
  'runId' | 'index' | 'createOnly' | 'only' | 'keepRemote' | 'matchBy'
> & {
  run: Pick<RunRecord, 'id' | 'matchBy' | 'sentFields' | 'matchColumnNames'>;
};

/**
 * Before a chunk's rows are planned (or, in a dry run, said): its creates of rows with a derived key
 * whose name a listed product without a SKU unknown to the tool has, and (matched by another field
 * than sku) its creates whose SKU or key a listed product has, recorded for the run's verdict.
 * Costs no command unless the run's list read found such products (RemoteIndex.listsUnrecorded) and
 * the chunk has such a row to create: then one look-up, and one write if any matches. A run matched
 * by sku asks the derived-key rows only, as before.
 */
export async function noteLookalikeCreates(
  deps: { redis: Redis; keys: RedisKeys },
  context: CheckContext,
  rows: readonly ProductUpsert[],
  lookups: ReadonlyMap<number, RowLookup>,
): Promise<void> {
  if (!context.index.listsUnrecorded) return;
  const creating = (row: ProductUpsert) =>
    planWrite(context, {}, row, lookups.get(row.row) ?? {})?.action === 'create';
  const found: string[] = [];
  if (context.run.matchBy !== 'sku') {
    const held = await listedKeyCreates(deps, context.run, rows.filter(creating));
    for (const create of held) found.push(String(create.row), JSON.stringify(create));
  }
  const creates = rows.flatMap((row) => {
    const name = row.derivedKey ? nameKey(row.fields.name) : null;
    return name !== null && creating(row) ? [{ row, name }] : [];
  });
  if (creates.length > 0) {
    const ids = await deps.redis.hmget(
      deps.keys.unrecordedNames(context.runId),
      ...creates.map((create) => create.name),
    );
    creates.forEach(({ row }, i) => {
      const productIds = ids[i]?.split(',');
      if (!productIds) return;
      const lookalike: Lookalike = { row: row.row, key: row.key, name: String(row.fields.name), productIds };
      found.push(String(row.row), JSON.stringify(lookalike));
    });
  }
  if (found.length === 0) return;
  const key = deps.keys.lookalikes(context.runId);
  await deps.redis
    .multi()
    .hset(key, ...found)
    .expire(key, RUN_TTL_SECONDS)
    .hset(deps.keys.run(context.runId), LOOKALIKE_ROWS, 1)
    .exec();
}

/** The run's held creates (LOOKALIKE_ROWS set), in row order; none when it has none. */
export async function lookalikesOf(redis: Redis, keys: RedisKeys, runId: string): Promise<HeldCreate[]> {
  const stored = await redis.hvals(keys.lookalikes(runId));
  return stored
    .map((json): HeldCreate => {
      const held = JSON.parse(json) as StoredLookalike | ListedKeyCreate;
      if ('field' in held) return held;
      const { productId, productIds, ...lookalike } = held;
      return { ...lookalike, productIds: productIds ?? (productId ? [productId] : []) };
    })
    .sort((a, b) => a.row - b.row);
}

/**
 * On `approve` of a run held for lookalike creates (all its held rows, or `rows`): the products
 * those approved rows looked like join the seller's approved look-alikes (keys.approvedLookalikes),
 * for which no later run is held (sync/unrecorded-names.ts). The seller looked at them and chose to
 * create the rows anyway: made elsewhere, they would hold every night a new row shares a name.
 * Costs nothing for a run whose list read found no such product; doing it again adds nothing.
 */
export async function rememberApproved(
  redis: Redis,
  keys: RedisKeys,
  run: { id: string; sellerRef: string; lookalikeGuarded?: boolean },
  rows: readonly number[] | null,
): Promise<void> {
  if (!run.lookalikeGuarded) return;
  const approved = rows ? new Set(rows) : null;
  const ids = new Set(
    (await lookalikesOf(redis, keys, run.id))
      .filter((held): held is Lookalike => !('field' in held))
      .filter((lookalike) => approved === null || approved.has(lookalike.row))
      .flatMap((lookalike) => lookalike.productIds),
  );
  if (ids.size === 0) return;
  const all = [...ids];
  const multi = redis.multi();
  for (let at = 0; at < all.length; at += IDS_PER_COMMAND)
    multi.sadd(keys.approvedLookalikes(run.sellerRef), ...all.slice(at, at + IDS_PER_COMMAND));
  await multi.exec();
}

/** How many rows and products the reason names; the rest are counted. */
const NAMED = 3;

/**
 * Why the run is held for them, or null for none: `row 12 (shopify:prod-5, "Café crème") looks
 * like product 345, which has no SKU and which this tool has no record of (made by hand or by
 * another app, or by this tool before its Redis record was lost): creating it may duplicate it
 * (approve creates it anyway and stops asking about that product, or give that product a SKU, and
 * the row the same one if it is the row's own)`. Every product the rows look like is counted, the
 * first ones named.
 */
export function lookalikeText(held: readonly HeldCreate[]): string | null {
  const listed = held.filter((create): create is ListedKeyCreate => 'field' in create);
  const named = nameText(held.filter((create): create is Lookalike => !('field' in create)));
  const reasons = [listedKeyText(listed), named].filter((reason) => reason !== null);
  return reasons.length > 0 ? reasons.join('; ') : null;
}

function nameText(lookalikes: readonly Lookalike[]): string | null {
  if (lookalikes.length === 0) return null;
  const oneRow = lookalikes.length === 1;
  const shown = lookalikes.slice(0, NAMED);
  const rows = listed(
    shown.map(({ row, key, name }) => `${row} (${key}, ${JSON.stringify(name)})`),
    lookalikes.length - shown.length,
  );
  const products = [...new Set(lookalikes.flatMap((lookalike) => lookalike.productIds))];
  const named = products.slice(0, NAMED);
  const oneProduct = products.length === 1;
  const productList = listed(named, products.length - named.length);
  const them = oneRow ? 'it' : 'them';
  const those = oneProduct ? 'that product' : 'those products';
  // The product may be the row's own (a record lost): given one SKU, the row finds it by it.
  const own = oneRow
    ? `the row the same one if ${oneProduct ? 'it is' : 'one is'} the row's own`
    : `a row the same one if ${oneProduct ? 'it is' : 'one is'} that row's own`;
  return (
    `${oneRow ? 'row' : 'rows'} ${rows} ${oneRow ? 'looks' : 'look'} like ` +
    `${oneProduct ? 'product' : 'products'} ${productList}, ` +
    `which ${oneProduct ? 'has' : 'have'} no SKU and which this tool has no record of ` +
    '(made by hand or by another app, or by this tool before its Redis record was lost): ' +
    `creating ${them} may duplicate ${oneProduct ? 'it' : 'them'} ` +
    `(approve creates ${them} anyway and stops asking about ${those}, or give ${those} a SKU, and ${own})`
  );
}

/** `1`, `1 and 2`, `1, 2, 3 and 5 more`. */
function listed(items: string[], more: number): string {
  const all = more > 0 ? [...items, `${more} more`] : [...items];
  if (all.length === 1) return all[0] ?? '';
  const last = all.pop();
  return `${all.join(', ')} and ${last}`;
}
