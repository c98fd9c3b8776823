import type { ChainableCommander, Redis } from 'ioredis';
import { defineScripts, luaScript, queueScript } from '../redis/scripts.js';
import type { RedisKeys } from '../runs/keys.js';
import { ID_MAP_BUCKETS, idMapKeyOf, readBuckets, reverseKeyOf } from './id-map-buckets.js';
import { decodeKnown, encodeKnown, type KnownProduct } from './id-map-entry.js';
import { migrateOldIdMap } from './id-map-migration.js';

export type { KnownProduct } from './id-map-entry.js';

// The record and the release of the create's claim in one step: no moment where neither holds the key.
const REMEMBER_SCRIPT = luaScript(
  'rememberProduct',
  3,
  `
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[3], ARGV[1])
if ARGV[4] ~= '' then
  local held = redis.call('HGET', KEYS[3], ARGV[1])
  if held and string.sub(held, 1, #ARGV[4]) == ARGV[4] then redis.call('HDEL', KEYS[3], ARGV[1]) end
end
return 1
`,
);

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
    this.queueRemember(multi, matchKey, product, claim);
    const [[error] = [null]] = (await multi.exec()) ?? [];
    if (error) throw error;
  }

  /** `remember`, queued on a MULTI or pipeline (the row's settle, row-writes.ts). */
  queueRemember(multi: ChainableCommander, matchKey: string, product: KnownProduct, claim = ''): void {
    queueScript(
      multi,
      REMEMBER_SCRIPT,
      this.bucketOf(matchKey),
      this.reverseBucketOf(product.id),
      this.keys.pendingCreates(this.sellerRef),
      matchKey,
      encodeKnown(matchKey, product),
      product.id,
      claim,
    );
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
