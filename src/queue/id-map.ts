import type { Redis } from 'ioredis';
import type { CompactValue } from '../catalog/compact-value.js';
import type { RedisKeys } from '../runs/keys.js';

/** What this tool remembers of a product it created or updated for a seller. */
export interface KnownProduct {
  id: string;
  /** Compact values last sent for fields the API did not echo back (see diffProduct). */
  sent: Record<string, CompactValue>;
}

/**
 * The seller's match key → product id map, kept across runs (ARCHITECTURE.md, decision 4): later
 * runs find the products this tool created even when the API does not echo the match field back.
 */
export class IdMap {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly sellerRef: string,
  ) {}

  async getMany(matchKeys: string[]): Promise<Map<string, KnownProduct>> {
    const found = new Map<string, KnownProduct>();
    if (matchKeys.length === 0) return found;
    const values = await this.redis.hmget(this.keys.idMap(this.sellerRef), ...matchKeys);
    values.forEach((value, i) => {
      if (value) found.set(matchKeys[i] as string, JSON.parse(value) as KnownProduct);
    });
    return found;
  }

  /** Match keys of the given remote ids, for products whose key the API does not show. */
  async keysOfIds(ids: string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    if (ids.length === 0) return found;
    const values = await this.redis.hmget(this.keys.idMapReverse(this.sellerRef), ...ids);
    values.forEach((key, i) => {
      if (key) found.set(ids[i] as string, key);
    });
    return found;
  }

  async remember(matchKey: string, product: KnownProduct): Promise<void> {
    await this.redis
      .multi()
      .hset(this.keys.idMap(this.sellerRef), matchKey, JSON.stringify(product))
      .hset(this.keys.idMapReverse(this.sellerRef), product.id, matchKey)
      .exec();
  }

  /** After a 404 on PUT: the product is gone or not this seller's, so the mapping is wrong. */
  async forget(matchKey: string, id: string): Promise<void> {
    await this.redis
      .multi()
      .hdel(this.keys.idMap(this.sellerRef), matchKey)
      .hdel(this.keys.idMapReverse(this.sellerRef), id)
      .exec();
  }

  async markCreatePending(matchKey: string, runId: string): Promise<void> {
    await this.redis.hset(this.keys.pendingCreates(this.sellerRef), matchKey, runId);
  }

  /** For each key, the run whose create of it is pending (a crash can leave one), or null. */
  async pendingCreates(matchKeys: string[]): Promise<(string | null)[]> {
    if (matchKeys.length === 0) return [];
    return this.redis.hmget(this.keys.pendingCreates(this.sellerRef), ...matchKeys);
  }

  async isCreatePending(matchKey: string): Promise<boolean> {
    return (await this.redis.hexists(this.keys.pendingCreates(this.sellerRef), matchKey)) === 1;
  }

  async clearCreatePending(matchKey: string): Promise<void> {
    await this.redis.hdel(this.keys.pendingCreates(this.sellerRef), matchKey);
  }
}
