import type { Redis } from 'ioredis';
import type { RedisKeys } from '../runs/keys.js';
import { anyProductRecorded, productsRecorded } from '../sync/match-space.js';

/** The seller a key already serves, when it may not serve another. */
export interface KeyHolder {
  ref: string;
  name: string | null;
  /** The products its id map holds. */
  products: number;
  /** Its runs listed (runs are kept 7 days). */
  runs: number;
}

/**
 * The seller `ref` that a key (by fingerprint) leads to, when that seller is the key's account in
 * its own right; null when nothing of it is kept, so the key may be linked to another seller (a
 * revoked key's replacement: its own ref has never been used). Anything recorded makes it the
 * key's own, not only products created: a seller onboarded with its products already on the API
 * matched them all (0 created), yet its runs, its day's request count (and so `--daily-budget`),
 * its `--missing` records and its match field are under this ref, and moving the key would leave
 * them behind, every later run under the other ref.
 *
 * The day's request count is not read: it needs the run's `--daily-reset`, and a request is only
 * ever counted for a run (a chunk, its reach probe, its revert), listed in `sellerRuns` for a week.
 * Read once per link asked (`resume`, a run's first `--seller NAME` with a key), never per row.
 */
export async function keyHolder(
  redis: Redis,
  keys: RedisKeys,
  ref: string,
  keyFingerprint: string,
): Promise<KeyHolder | null> {
  const [name, runs, products] = await Promise.all([
    redis.hget(keys.seller(ref), 'name'),
    redis.zcard(keys.sellerRuns(ref)),
    productsRecorded(redis, keys, ref),
  ]);
  const holder: KeyHolder = { ref, name: name || null, products, runs };
  if (holder.name || runs > 0 || products > 0) return holder;
  // Linked to it (`resume`, `--seller`): the key was made this seller's on purpose.
  if (ref !== keyFingerprint) return holder;
  return (await leftOrLinked(redis, keys, ref)) ? holder : null;
}

/**
 * keyHolder's judgement as a yes or no, without counting the products (an HLEN per id map bucket):
 * whether the seller `ref` that a key leads to has anything recorded, read before a run is created
 * (`run`'s 401 line, rejected-key-line.ts). Two commands for a seller with a name or runs.
 */
export async function keyHasHistory(
  redis: Redis,
  keys: RedisKeys,
  ref: string,
  keyFingerprint: string,
): Promise<boolean> {
  const [name, runs] = await Promise.all([
    redis.hget(keys.seller(ref), 'name'),
    redis.zcard(keys.sellerRuns(ref)),
  ]);
  if (name || runs > 0 || ref !== keyFingerprint) return true;
  return (await anyProductRecorded(redis, keys, ref)) || leftOrLinked(redis, keys, ref);
}

/** What a seller's runs leave besides its run list and id map, or another key linked to it. */
async function leftOrLinked(redis: Redis, keys: RedisKeys, ref: string): Promise<boolean> {
  // What its runs leave besides (a week's run list expires; these do not): one EXISTS, one slot
  // on a cluster (every key of the seller carries its tag).
  const left = await redis.exists(
    keys.idMapHome(ref),
    keys.idMapFields(ref),
    keys.fieldsSent(ref),
    keys.fullRead(ref),
    keys.deactivatedProducts(ref),
    keys.deactivated(ref),
    keys.learnedLimit(ref),
    keys.limitReset(ref),
    keys.acceptedRequests(ref),
  );
  if (left > 0) return true;
  // Another key linked to it (a key replaced before this one): the seller is that key's too.
  // Read last and rarely: the aliases are one hash of every linked key.
  return (await redis.hvals(keys.sellerAliases)).includes(ref);
}
