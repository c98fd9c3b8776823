import type { Redis } from 'ioredis';
import type { RedisKeys } from '../runs/keys.js';
import type { CompactValue } from '../sync/compact-value.js';

/** What `--missing` recorded of a product before its deactivating PUT. */
export interface DeactivatedProduct {
  id: string;
  /** The values the `--missing` fields showed before (null: the product showed none). */
  former: Record<string, CompactValue | null>;
}

// Removed only while it still names the same product: a key re-created since keeps its own record.
const CLEAR_SCRIPT = `
local value = redis.call('HGET', KEYS[1], ARGV[1])
if value and cjson.decode(value).id == ARGV[2] then return redis.call('HDEL', KEYS[1], ARGV[1]) end
return 0
`;

/**
 * The seller's deactivated products (keys.deactivated), kept like the id map (no expiry): recorded
 * before the write, read when a product returns to the source, cleared once it is back.
 */
export class DeactivatedStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly sellerRef: string,
    /** The match field's space (match-space.ts): a product returns under a key of the same field. */
    private readonly space = '',
  ) {}

  /**
   * Records the values before the write. A product deactivated already keeps its first record: the
   * values before the first deactivation are the ones to give back, not the `--missing` ones.
   */
  async record(matchKey: string, product: DeactivatedProduct): Promise<void> {
    await this.redis.hsetnx(
      this.keys.deactivated(this.sellerRef, this.space),
      matchKey,
      JSON.stringify(product),
    );
  }

  /** The records of these keys (keys without one are absent); what is not a record is ignored. */
  async getMany(matchKeys: string[]): Promise<Map<string, DeactivatedProduct>> {
    const found = new Map<string, DeactivatedProduct>();
    if (matchKeys.length === 0) return found;
    const values = await this.redis.hmget(this.keys.deactivated(this.sellerRef, this.space), ...matchKeys);
    values.forEach((value, i) => {
      const product = value ? parseRecord(value) : null;
      if (product) found.set(matchKeys[i] as string, product);
    });
    return found;
  }

  async clear(matchKey: string, id: string): Promise<void> {
    await this.redis.eval(CLEAR_SCRIPT, 1, this.keys.deactivated(this.sellerRef, this.space), matchKey, id);
  }
}

/** Redis is not trusted: a record is an id and scalar former values, or nothing. */
function parseRecord(json: string): DeactivatedProduct | null {
  try {
    const parsed = JSON.parse(json) as { id?: unknown; former?: unknown };
    if (typeof parsed.id !== 'string' || typeof parsed.former !== 'object' || parsed.former === null)
      return null;
    const former: Record<string, CompactValue | null> = {};
    for (const [field, value] of Object.entries(parsed.former)) {
      const scalar = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
      former[field] = scalar ? value : null;
    }
    return { id: parsed.id, former };
  } catch {
    return null;
  }
}
