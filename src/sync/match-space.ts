import type { Redis } from 'ioredis';
import type { RedisKeys } from '../runs/keys.js';
import { IdMap } from './id-map.js';
import { ID_MAP_BUCKETS } from './id-map-buckets.js';
import { fieldOf } from './record-writers.js';

/*
 * What the tool keeps per seller by match key (its id map and reverse, the claims of creates) is kept
 * apart per match field: a run matching by `name` must not take the entry of SKU `Lamp` for the
 * product named `Lamp` (it would update that other product), and an `--incremental` run's record is
 * complete for the field it was read by only. What it keeps of a product found already (`--missing`'s
 * records, missing/deactivated-store.ts) is kept by product id: the same product under any field.
 *
 * The seller's first field (its "home", keys.idMapHome) keeps the keys' old names (space ''): the id
 * maps written before fields were kept apart are that field's, found again as they are, with nothing
 * moved. Any other field gets a space of its own: `~` and the field's name (`ids~name:12`).
 */

/** The space of a field that is not the seller's home. */
export function spaceOfField(field: string): string {
  return `~${encodeURIComponent(field)}`;
}

/** How many of the seller's latest runs are asked which field an id map from before spaces is of. */
const RUNS_ASKED = 50;

/**
 * The space of `matchBy` for the seller: '' when it is the seller's home field (decided here the
 * first time: see homeField), else its own, noted in keys.idMapFields (productsRecorded counts it).
 * `runId`: the run asking, left out of the runs asked. A dry run (`dryRun`) decides and notes
 * nothing: it writes no id map, and what it left would make the seller look used (key-holder.ts),
 * its field the home of a seller no real run has matched yet.
 */
export async function matchSpaceOf(
  redis: Redis,
  keys: RedisKeys,
  sellerRef: string,
  matchBy: string,
  runId?: string,
  dryRun = false,
): Promise<string> {
  const home = await homeField(redis, keys, sellerRef, matchBy, runId, dryRun);
  if (home === matchBy) return '';
  if (!dryRun) await redis.sadd(keys.idMapFields(sellerRef), matchBy);
  return spaceOfField(matchBy);
}

/**
 * The seller's home field, set once for good (SET NX: every process agrees). Not cached: a Redis
 * that lost its state decides again, as its id map is gone too. Not set for a dry run (`peek`):
 * what it would be, as the next real run decides it.
 */
async function homeField(
  redis: Redis,
  keys: RedisKeys,
  sellerRef: string,
  matchBy: string,
  runId: string | undefined,
  peek: boolean,
): Promise<string> {
  const key = keys.idMapHome(sellerRef);
  const known = await redis.get(key);
  if (known !== null) return known;
  const chosen = await fieldOfUnspacedMap(redis, keys, sellerRef, runId);
  if (peek) return chosen ?? matchBy;
  await redis.set(key, chosen ?? matchBy, 'NX');
  return (await redis.get(key)) ?? chosen ?? matchBy;
}

/**
 * The field the seller's id map from before spaces is of, or null when it holds nothing (a new
 * seller: the run's own field becomes home). That map is the field the seller's runs matched by:
 * the latest run that could write it says which (runs are kept 7 days); none left, `sku`, the
 * default of every version.
 */
async function fieldOfUnspacedMap(
  redis: Redis,
  keys: RedisKeys,
  sellerRef: string,
  runId: string | undefined,
): Promise<string | null> {
  await new IdMap(redis, keys, sellerRef).ready();
  // One EXISTS over every bucket (one slot on a cluster: the seller's tag), not an HLEN each.
  const buckets = Array.from({ length: ID_MAP_BUCKETS }, (_, bucket) => keys.idMapBucket(sellerRef, bucket));
  if ((await redis.exists(...buckets)) === 0) return null;
  const latest = await redis.zrevrange(keys.sellerRuns(sellerRef), 0, RUNS_ASKED - 1);
  // The runs before the one asking (a run queued since has written nothing yet).
  const ids =
    runId !== undefined && latest.includes(runId) ? latest.slice(latest.indexOf(runId) + 1) : latest;
  const reads = redis.pipeline();
  for (const id of ids) reads.hget(keys.run(id), 'spec');
  for (const [, spec] of (await reads.exec()) ?? []) {
    const field = fieldOf(typeof spec === 'string' ? spec : null);
    if (field) return field;
  }
  return 'sku';
}

/** How many products the seller's id maps hold, every field's: what its runs would find again by key. */
export async function productsRecorded(redis: Redis, keys: RedisKeys, sellerRef: string): Promise<number> {
  const fields = await redis.smembers(keys.idMapFields(sellerRef));
  const sizes = await Promise.all(
    ['', ...fields.map(spaceOfField)].map((space) => new IdMap(redis, keys, sellerRef, space).size()),
  );
  return sizes.reduce((sum, size) => sum + size, 0);
}

/**
 * Whether the seller's id map holds any product, or another match field's map was begun: what
 * productsRecorded > 0 says, in one EXISTS (one slot on a cluster: the seller's tag), not an HLEN
 * per bucket: for a check made once per run.
 */
export async function anyProductRecorded(redis: Redis, keys: RedisKeys, sellerRef: string): Promise<boolean> {
  await new IdMap(redis, keys, sellerRef).ready();
  const buckets = Array.from({ length: ID_MAP_BUCKETS }, (_, bucket) => keys.idMapBucket(sellerRef, bucket));
  return (await redis.exists(keys.idMapFields(sellerRef), ...buckets)) > 0;
}

/** How many products the id map of the run's match field holds (the record an `--incremental` run relies on). */
export async function productsRecordedByField(
  redis: Redis,
  keys: RedisKeys,
  run: { id: string; sellerRef: string; matchBy: string; dryRun?: boolean },
): Promise<number> {
  const space = await matchSpaceOf(redis, keys, run.sellerRef, run.matchBy, run.id, run.dryRun);
  return new IdMap(redis, keys, run.sellerRef, space).size();
}
