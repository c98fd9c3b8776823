import type { Redis } from 'ioredis';
import type { RedisKeys } from '../runs/keys.js';
import type { CompactValue } from '../sync/compact-value.js';

/** What `--missing` recorded of a product before its deactivating PUT. */
export interface DeactivatedProduct {
  id: string;
  /** The values the `--missing` fields showed before (null: the product showed none). */
  former: Record<string, CompactValue | null>;
  /** The day of the deactivating PUT (UTC, `2026-11-27`); absent in a record from before it was kept. */
  at?: string;
  /** The values `--missing` set; absent in a record from before they were kept. */
  set?: Record<string, CompactValue>;
}

// Removed only while it still names the same product: a key re-created since keeps its own record.
const CLEAR_SCRIPT = `
local value = redis.call('HGET', KEYS[1], ARGV[1])
if value and cjson.decode(value).id == ARGV[2] then return redis.call('HDEL', KEYS[1], ARGV[1]) end
return 0
`;

const REPLACE_SCRIPT = `
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then return redis.call('HSET', KEYS[1], ARGV[1], ARGV[3]) end
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
  async record(matchKey: string, product: DeactivatedProduct): Promise<DeactivatedProduct> {
    const key = this.keys.deactivated(this.sellerRef, this.space);
    if ((await this.redis.hsetnx(key, matchKey, JSON.stringify(product))) === 1) return product;
    const json = await this.redis.hget(key, matchKey);
    const kept = json ? parseRecord(json) : null;
    if (!json || !kept || kept.id !== product.id) return product;
    // A field the first record knew no value of, that the product shows now (set by hand since): that
    // value is the one to give back.
    const learned = Object.entries(product.former).filter(
      ([field, value]) => value !== null && (kept.former[field] ?? null) === null,
    );
    if (learned.length === 0) return kept;
    const merged = { ...kept, former: { ...kept.former, ...Object.fromEntries(learned) } };
    await this.replace(matchKey, json, merged);
    return merged;
  }

  /**
   * Keeps only `fields` of the record (a product back in the source whose `--missing` values stay,
   * having none before): its note is said again on each run until the source gives them, and the
   * fields that were given back are not given back again over a later edit.
   */
  async narrow(matchKey: string, id: string, fields: readonly string[]): Promise<void> {
    const key = this.keys.deactivated(this.sellerRef, this.space);
    const json = await this.redis.hget(key, matchKey);
    const kept = json ? parseRecord(json) : null;
    if (!json || !kept || kept.id !== id) return;
    const pick = <T>(values: Record<string, T> | undefined) =>
      values && Object.fromEntries(Object.entries(values).filter(([field]) => fields.includes(field)));
    const narrowed: DeactivatedProduct = { ...kept, former: pick(kept.former) ?? {} };
    const set = pick(kept.set);
    if (set) narrowed.set = set;
    await this.replace(matchKey, json, narrowed);
  }

  /** Replaces a record only while it is still `was` (another run may have changed it meanwhile). */
  private async replace(matchKey: string, was: string, record: DeactivatedProduct): Promise<void> {
    await this.redis.eval(
      REPLACE_SCRIPT,
      1,
      this.keys.deactivated(this.sellerRef, this.space),
      matchKey,
      was,
      JSON.stringify(record),
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
    for (const [field, value] of Object.entries(parsed.former))
      former[field] = isScalar(value) ? value : null;
    const record: DeactivatedProduct = { id: parsed.id, former };
    const { at, set } = parsed as { at?: unknown; set?: unknown };
    if (typeof at === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(at)) record.at = at;
    if (typeof set === 'object' && set !== null) {
      record.set = {};
      for (const [field, value] of Object.entries(set)) if (isScalar(value)) record.set[field] = value;
    }
    return record;
  } catch {
    return null;
  }
}

function isScalar(value: unknown): value is CompactValue {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}
