import type { ChainableCommander, Redis } from 'ioredis';
import { defineScripts, luaScript, queueScript } from '../redis/scripts.js';
import type { RedisKeys } from '../runs/keys.js';
import type { CompactValue } from './compact-value.js';

/** What this tool remembers of a product it created or updated for a seller (the three-way diff). */
export interface KnownProduct {
  id: string;
  /** The compact value of each field as this tool last sent it. */
  sent: Record<string, CompactValue>;
  /**
   * What the API showed of a sent field after the write, where it differs from what was sent (a price
   * kept in cents, a trimmed name): an echo digest (see echoDigest), or UNKNOWN_ECHO when the answer
   * showed nothing and the next list read is to tell. A field absent here was shown as sent.
   */
  echo?: Record<string, string>;
}

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
 * The seller's match key → product id map, kept across runs (ARCHITECTURE.md, decision 4): later
 * runs find the products this tool created even when the API does not echo the match field back.
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

  /** Records a product; `claim` (a create's claim token) is released in the same step. */
  async remember(matchKey: string, product: KnownProduct, claim = ''): Promise<void> {
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
      this.keys.idMap(this.sellerRef),
      this.keys.idMapReverse(this.sellerRef),
      this.keys.pendingCreates(this.sellerRef),
      matchKey,
      JSON.stringify(product),
      product.id,
      claim,
    );
  }

  /**
   * Adds, to a transaction, a product listed under `matchKey` that the map does not hold yet: a later
   * `--incremental` run then updates it rather than creating it again (no record is ever a create).
   */
  addListed(multi: ChainableCommander, matchKey: string, id: string): void {
    multi.hsetnx(
      this.keys.idMap(this.sellerRef),
      matchKey,
      JSON.stringify({ id, sent: {} } satisfies KnownProduct),
    );
    multi.hsetnx(this.keys.idMapReverse(this.sellerRef), id, matchKey);
  }

  /** After a 404 on PUT: the product is gone or not this seller's, so the mapping is wrong. */
  async forget(matchKey: string, id: string): Promise<void> {
    await this.redis
      .multi()
      .hdel(this.keys.idMap(this.sellerRef), matchKey)
      .hdel(this.keys.idMapReverse(this.sellerRef), id)
      .exec();
  }
}
