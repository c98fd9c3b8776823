import type { ChainableCommander, Redis } from 'ioredis';
import { runWrites, WriteList } from '../redis/write-list.js';
import type { RedisKeys } from '../runs/keys.js';
import type { GatheredWrite } from '../runs/settle-batch.js';
import { ID_MAP_BUCKETS, idMapKeyOf, readBuckets, reverseKeyOf } from './id-map-buckets.js';
import { decodeKnown, encodeKnown, encodeListed, entryHead, type KnownProduct } from './id-map-entry.js';
import { migrateOldIdMap } from './id-map-migration.js';

export type { KnownProduct } from './id-map-entry.js';

/** A product to record, and the create's claim token to release with it ('' for none). */
export interface Remembered {
  matchKey: string;
  product: KnownProduct;
  claim: string;
  /**
   * The row's former key and the product the map holds under it (sync/former-keys.ts): that entry
   * is removed in the same step, while it still names that product. The product is known by its
   * SKU from now on: its derived key leads nowhere.
   */
  former?: { key: string; id: string };
  /**
   * The product the map held under `matchKey` whose PUT answered 404, now replaced by `product`
   * (row-sync.ts): its reverse entry goes in the same step, while it still names the key.
   */
  replaces?: string;
}

/**
 * The seller's match key → product id map, kept across runs (docs/architecture.md, decision 4): later
 * runs find the products this tool created even when the API does not echo the match field back.
 * Kept in buckets of compact entries (id-map-buckets.ts, id-map-entry.ts; issue 12), one map per
 * match field (`space`, match-space.ts): a name is never looked up among SKUs. Every reading
 * method first waits for an id map of the old form to be moved into them (id-map-migration.ts); the
 * queued writes come after a read of the same process (a chunk's look-up, a page's reverse look-up).
 */
export class IdMap {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly sellerRef: string,
    /** The match field's space (match-space.ts): '' for the seller's first field. */
    private readonly space = '',
  ) {}

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
      lengths.hlen(this.keys.idMapBucket(this.sellerRef, bucket, this.space));
    }
    let total = 0;
    for (const [error, length] of (await lengths.exec()) ?? []) {
      if (error) throw error;
      total += Number(length);
    }
    return total;
  }

  /**
   * Records a product; `claim` (a create's claim token) is released in the same step, and the
   * entries `also` names (a former key's, a replaced product's reverse) are removed in it.
   */
  async remember(
    matchKey: string,
    product: KnownProduct,
    claim = '',
    also: Pick<Remembered, 'former' | 'replaces'> = {},
  ): Promise<void> {
    await this.ready();
    const writes = new WriteList();
    this.writeRemembered(writes, [{ matchKey, product, claim, ...also }]);
    await runWrites(this.redis, writes);
  }

  /** `remember` of many products, in the step that settles their rows (row-writes.ts). */
  readonly remembered: GatheredWrite<Remembered> = {
    write: (writes, items) => this.writeRemembered(writes, items),
  };

  /**
   * Each product in its bucket and its reverse (an HSET per bucket written), and each create's claim
   * released where it is still the token's (no moment where neither the claim nor the record holds
   * the key: they are one step).
   */
  private writeRemembered(writes: WriteList, items: readonly Remembered[]): void {
    const buckets = new Map<string, string[]>();
    const add = (bucket: string, field: string, value: string) => {
      const values = buckets.get(bucket);
      if (values) values.push(field, value);
      else buckets.set(bucket, [field, value]);
    };
    const claims: string[] = [];
    const formers: NonNullable<Remembered['former']>[] = [];
    const replaced: { key: string; id: string }[] = [];
    for (const { matchKey, product, claim, former, replaces } of items) {
      add(this.bucketOf(matchKey), matchKey, encodeKnown(matchKey, product));
      add(this.reverseBucketOf(product.id), product.id, matchKey);
      if (claim !== '') claims.push(matchKey, claim);
      if (former && former.key !== matchKey) formers.push(former);
      if (replaces !== undefined && replaces !== product.id) replaced.push({ key: matchKey, id: replaces });
    }
    for (const [bucket, values] of buckets) writes.hset(bucket, values);
    for (const { key, id } of formers) writes.deleteWhereFirstItem(this.bucketOf(key), [key, entryHead(id)]);
    for (const { key, id } of replaced) writes.deleteWhereFirstItem(this.reverseBucketOf(id), [id, key]);
    writes.deleteWherePrefixed(this.keys.pendingCreates(this.sellerRef, this.space), claims);
  }

  /**
   * Adds, to a transaction, a product listed under `matchKey` that the map does not hold yet: a later
   * `--incremental` run then updates it rather than creating it again (no record is ever a create).
   * Marked listed only: a product made by hand is not one this tool manages (`--missing`), until a
   * source row's write or match records it.
   */
  addListed(multi: ChainableCommander, matchKey: string, id: string): void {
    multi.hsetnx(this.bucketOf(matchKey), matchKey, encodeListed(id));
    multi.hsetnx(this.reverseBucketOf(id), id, matchKey);
  }

  /**
   * After a 404 on PUT whose create then failed for good: the API answered, so the product is gone
   * or not this seller's, and the mapping is wrong (row-sync.ts). Never before the API is known to
   * be there: a base URL that answers 404 to everything answers a PUT so too.
   */
  async forget(matchKey: string, id: string): Promise<void> {
    await this.ready();
    await this.redis
      .multi()
      .hdel(this.bucketOf(matchKey), matchKey)
      .hdel(this.reverseBucketOf(id), id)
      .exec();
  }

  private bucketOf(matchKey: string): string {
    return idMapKeyOf(this.keys, this.sellerRef, matchKey, this.space);
  }

  private reverseBucketOf(id: string): string {
    return reverseKeyOf(this.keys, this.sellerRef, id, this.space);
  }
}
