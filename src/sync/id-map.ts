import type { ChainableCommander, Redis } from 'ioredis';
import { LUA_SLICES } from '../redis/lua-slices.js';
import { defineScripts, luaScript, queueScript, VARIABLE_KEYS } from '../redis/scripts.js';
import type { RedisKeys } from '../runs/keys.js';
import type { GatheredWrite } from '../runs/settle-batch.js';
import { ID_MAP_BUCKETS, idMapKeyOf, readBuckets, reverseKeyOf } from './id-map-buckets.js';
import { decodeKnown, encodeKnown, type KnownProduct } from './id-map-entry.js';
import { migrateOldIdMap } from './id-map-migration.js';

export type { KnownProduct } from './id-map-entry.js';

// The records and the release of the creates' claims in one step: no moment where neither holds a
// key. KEYS[1]: the claims; KEYS[2…]: the buckets written, each with, in ARGV, the number of its
// values then its field/value pairs; the rest of ARGV: match key/claim token pairs, each key released
// where its claim is still the token's. Commands per hash written, not per product (issue 31).
const REMEMBER_SCRIPT = luaScript(
  'rememberProducts',
  VARIABLE_KEYS,
  `${LUA_SLICES}
local at = 1
for k = 2, #KEYS do
  local count = tonumber(ARGV[at])
  local values = {}
  for j = at + 1, at + count do values[#values + 1] = ARGV[j] end
  sliced('HSET', KEYS[k], values)
  at = at + count + 1
end
local claimed, tokens = {}, {}
for j = at, #ARGV, 2 do
  claimed[#claimed + 1] = ARGV[j]
  tokens[#tokens + 1] = ARGV[j + 1]
end
if #claimed == 0 then return 1 end
local held = sliced('HMGET', KEYS[1], claimed)
local released = {}
for i = 1, #claimed do
  if held[i] and string.sub(held[i], 1, #tokens[i]) == tokens[i] then released[#released + 1] = claimed[i] end
end
if #released > 0 then sliced('HDEL', KEYS[1], released) end
return 1
`,
);

/** A product to record, and the create's claim token to release with it ('' for none). */
export interface Remembered {
  matchKey: string;
  product: KnownProduct;
  claim: string;
}

/**
 * The seller's match key → product id map, kept across runs (docs/architecture.md, decision 4): later
 * runs find the products this tool created even when the API does not echo the match field back.
 * Kept in buckets of compact entries (id-map-buckets.ts, id-map-entry.ts; issue 12). Every reading
 * method first waits for an id map of the old form to be moved into them (id-map-migration.ts); the
 * queued writes come after a read of the same process (a chunk's look-up, a page's reverse look-up).
 */
export class IdMap {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly sellerRef: string,
  ) {
    // Defined before any MULTI is made on the client: the settle's MULTI queues it (row-writes.ts).
    defineScripts(redis, REMEMBER_SCRIPT);
  }

  /** Resolves once the seller's id map is in buckets only (moved there by the first process). */
  ready(): Promise<void> {
    return migrateOldIdMap(this.redis, this.keys, this.sellerRef);
  }

  async getMany(matchKeys: string[]): Promise<Map<string, KnownProduct>> {
    await this.ready();
    const found = new Map<string, KnownProduct>();
    if (matchKeys.length === 0) return found;
    const values = await readBuckets(this.redis, matchKeys, (key) => this.bucketOf(key));
    values.forEach((value, i) => {
      const key = matchKeys[i] as string;
      if (value) found.set(key, decodeKnown(key, value));
    });
    return found;
  }

  /** Match keys of the given remote ids, for products whose key the API does not show. */
  async keysOfIds(ids: string[]): Promise<Map<string, string>> {
    await this.ready();
    const found = new Map<string, string>();
    if (ids.length === 0) return found;
    const values = await readBuckets(this.redis, ids, (id) => this.reverseBucketOf(id));
    values.forEach((key, i) => {
      if (key) found.set(ids[i] as string, key);
    });
    return found;
  }

  /** How many products the map holds: the length of every bucket, in one round trip. */
  async size(): Promise<number> {
    await this.ready();
    const lengths = this.redis.pipeline();
    for (let bucket = 0; bucket < ID_MAP_BUCKETS; bucket++) {
      lengths.hlen(this.keys.idMapBucket(this.sellerRef, bucket));
    }
    let total = 0;
    for (const [error, length] of (await lengths.exec()) ?? []) {
      if (error) throw error;
      total += Number(length);
    }
    return total;
  }

  /** Records a product; `claim` (a create's claim token) is released in the same step. */
  async remember(matchKey: string, product: KnownProduct, claim = ''): Promise<void> {
    await this.ready();
    const multi = this.redis.pipeline();
    this.queueRemember(multi, [{ matchKey, product, claim }]);
    const [[error] = [null]] = (await multi.exec()) ?? [];
    if (error) throw error;
  }

  /** `remember` of many products, in one script call (the rows of a settle, row-writes.ts). */
  readonly remembered: GatheredWrite<Remembered> = {
    queue: (multi, items) => this.queueRemember(multi, items),
  };

  /** `remember` of each item, in order, queued on a MULTI or pipeline as one script call. */
  private queueRemember(multi: ChainableCommander, items: readonly Remembered[]): void {
    const buckets = new Map<string, string[]>();
    const add = (bucket: string, field: string, value: string) => {
      const values = buckets.get(bucket);
      if (values) values.push(field, value);
      else buckets.set(bucket, [field, value]);
    };
    const claims: string[] = [];
    for (const { matchKey, product, claim } of items) {
      add(this.bucketOf(matchKey), matchKey, encodeKnown(matchKey, product));
      add(this.reverseBucketOf(product.id), product.id, matchKey);
      if (claim !== '') claims.push(matchKey, claim);
    }
    const keys = [this.keys.pendingCreates(this.sellerRef), ...buckets.keys()];
    const args = [...buckets.values()].flatMap((values) => [String(values.length), ...values]);
    queueScript(multi, REMEMBER_SCRIPT, keys.length, ...keys, ...args, ...claims);
  }

  /**
   * Adds, to a transaction, a product listed under `matchKey` that the map does not hold yet: a later
   * `--incremental` run then updates it rather than creating it again (no record is ever a create).
   */
  addListed(multi: ChainableCommander, matchKey: string, id: string): void {
    multi.hsetnx(this.bucketOf(matchKey), matchKey, encodeKnown(matchKey, { id, sent: {} }));
    multi.hsetnx(this.reverseBucketOf(id), id, matchKey);
  }

  /** After a 404 on PUT: the product is gone or not this seller's, so the mapping is wrong. */
  async forget(matchKey: string, id: string): Promise<void> {
    await this.ready();
    await this.redis
      .multi()
      .hdel(this.bucketOf(matchKey), matchKey)
      .hdel(this.reverseBucketOf(id), id)
      .exec();
  }

  private bucketOf(matchKey: string): string {
    return idMapKeyOf(this.keys, this.sellerRef, matchKey);
  }

  private reverseBucketOf(id: string): string {
    return reverseKeyOf(this.keys, this.sellerRef, id);
  }
}
