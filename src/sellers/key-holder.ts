import type { Redis } from 'ioredis';
import type { RedisKeys } from '../runs/keys.js';
import { anyProductRecorded, productsRecorded } from '../sync/match-space.js';

/** The seller a key already serves, when it may not serve another. */
export interface KeyHolder {
  ref: string;
  name: string | null;
  /** The products its id map holds. */
  products: number;
  /** Its runs listed that were not dry runs (runs are kept 7 days). */
  runs: number;
}

/**
 * The seller `ref` that a key (by fingerprint) leads to, when that seller is the key's account in
 * its own right; null when nothing of it is kept, so the key may be linked to another seller (a
 * revoked key's replacement: its own ref has never been used). Anything a real run records makes it
 * the key's own, not only products created: a seller onboarded with its products already on the API
 * matched them all (0 created), yet its runs, its `--missing` records and its match field are under
 * this ref, and moving the key would leave them behind, every later run under the other ref.
 *
 * A dry run makes no ref its key's own (checking a revoked key's replacement before `resume` is
 * what one is for): it writes nothing a sync depends on, so its listing is not counted, and what
 * else it leaves under the ref is not read: the quota's (the day's request count, a limit learned or
 * a reset announced by a 429 to its list read) is the API account's, kept for the requests that
 * ref's key sends, no record of a sync. Moving the key leaves a dry run's read counted under this ref.
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
    runsNotDry(redis, keys, ref, Number.POSITIVE_INFINITY),
    productsRecorded(redis, keys, ref),
  ]);
  const holder: KeyHolder = { ref, name: name || null, products, runs };
  if (holder.name || runs > 0 || products > 0) return holder;
  // Linked to it (`resume`, `--seller`): the key was made this seller's on purpose.
  if (ref !== keyFingerprint) return holder;
  return (await leftOrLinked(redis, keys, ref)) ? holder : null;
}

/**
 * keyHolder's judgement as a yes or no, without counting the products (an HLEN per id map bucket)
 * nor every run: whether the seller `ref` that a key leads to has anything recorded, read before a
 * run is created (`run`'s 401 line, rejected-key-line.ts). One command for a named seller, three
 * round trips for one whose latest runs include one not dry.
 */
export async function keyHasHistory(
  redis: Redis,
  keys: RedisKeys,
  ref: string,
  keyFingerprint: string,
): Promise<boolean> {
  if (ref !== keyFingerprint || (await redis.hget(keys.seller(ref), 'name'))) return true;
  if ((await runsNotDry(redis, keys, ref, 1)) > 0) return true;
  return (await anyProductRecorded(redis, keys, ref)) || leftOrLinked(redis, keys, ref);
}

/** Run records read per round trip, newest first: the latest run nearly always says. */
const RUNS_PAGE = 20;

/**
 * How many of the seller's runs listed were not dry runs, counted up to `enough`. A run whose record
 * has expired is not counted (a run older than a week counts no more than an unlisted one); a spec
 * that does not parse is (Redis is not trusted: unknown is not taken for a dry run).
 */
async function runsNotDry(redis: Redis, keys: RedisKeys, ref: string, enough: number): Promise<number> {
  // The ids at once, then their specs a page at a time: runs listed meanwhile shift no page.
  const ids = await redis.zrevrange(keys.sellerRuns(ref), 0, -1);
  let count = 0;
  for (let start = 0; start < ids.length && count < enough; start += RUNS_PAGE) {
    const reads = redis.pipeline();
    for (const id of ids.slice(start, start + RUNS_PAGE)) reads.hget(keys.run(id), 'spec');
    for (const [error, spec] of (await reads.exec()) ?? []) {
      if (error) throw error;
      if (typeof spec === 'string' && !wasDryRun(spec)) count++;
    }
  }
  return count;
}

function wasDryRun(spec: string): boolean {
  try {
    return (JSON.parse(spec) as { dryRun?: unknown }).dryRun === true;
  } catch {
    return false;
  }
}

/** What a seller's real runs leave besides its run list and id map, or another key linked to it. */
async function leftOrLinked(redis: Redis, keys: RedisKeys, ref: string): Promise<boolean> {
  // What its runs leave besides (a week's run list expires; these do not): one EXISTS, one slot
  // on a cluster (every key of the seller carries its tag). None is written by a dry run (its match
  // field is not made the seller's home: match-space.ts); the quota's keys are not read (keyHolder).
  const left = await redis.exists(
    keys.idMapHome(ref),
    keys.idMapFields(ref),
    keys.fieldsSent(ref),
    keys.fullRead(ref),
    keys.deactivatedProducts(ref),
    keys.deactivated(ref),
  );
  if (left > 0) return true;
  // Another key linked to it (a key replaced before this one): the seller is that key's too.
  // Read last and rarely: the aliases are one hash of every linked key.
  return (await redis.hvals(keys.sellerAliases)).includes(ref);
}
