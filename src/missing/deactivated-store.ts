import type { Redis } from 'ioredis';
import type { RedisKeys } from '../runs/keys.js';
import type { CompactValue } from '../sync/compact-value.js';
import { moveDeactivatedByKey } from './deactivated-migration.js';
import type { DeactivatedProduct } from './deactivated-product.js';
import { mergedRecord } from './merged-record.js';

export type { DeactivatedProduct } from './deactivated-product.js';

const REPLACE_SCRIPT = `
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then return redis.call('HSET', KEYS[1], ARGV[1], ARGV[3]) end
return 0
`;

/**
 * The seller's deactivated products (keys.deactivatedProducts), kept like the id map (no expiry):
 * recorded before the write, read when a product returns to the source, cleared once it is back.
 * Kept by product id, not by match key: a product is the same whichever field a run matches it by
 * (`--match-by`), and a run finds it again through its row's look-up, whatever the field. Every
 * method first waits for the records of an earlier version to be moved (deactivated-migration.ts).
 */
export class DeactivatedStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly sellerRef: string,
  ) {}

  private async hash(): Promise<string> {
    await moveDeactivatedByKey(this.redis, this.keys, this.sellerRef);
    return this.keys.deactivatedProducts(this.sellerRef);
  }

  /**
   * Records the values before the write. A product deactivated already keeps its first record: the
   * values before the first deactivation are the ones to give back, not the `--missing` ones. What
   * this write adds to it (more fields named since, a value set by hand since) is merged in
   * (merged-record.ts). Resolves to the record as kept.
   */
  async record(product: DeactivatedProduct): Promise<DeactivatedProduct> {
    const key = await this.hash();
    if ((await this.redis.hsetnx(key, product.id, JSON.stringify(product))) === 1) return product;
    const json = await this.redis.hget(key, product.id);
    const kept = json ? parseRecord(json) : null;
    if (!json || !kept || kept.id !== product.id) return product;
    const merged = mergedRecord(kept, product);
    if (!merged) return kept;
    await this.replace(product.id, json, merged);
    return merged;
  }

  /**
   * Keeps only `fields` of the record (a product back in the source whose `--missing` values stay,
   * having none before): its note is said again on each run until the source gives them, and the
   * fields that were given back are not given back again over a later edit.
   */
  async narrow(id: string, fields: readonly string[]): Promise<void> {
    const json = await this.redis.hget(await this.hash(), id);
    const kept = json ? parseRecord(json) : null;
    if (!json || !kept) return;
    const pick = <T>(values: Record<string, T> | undefined) =>
      values && Object.fromEntries(Object.entries(values).filter(([field]) => fields.includes(field)));
    const { set: _set, setOn: _setOn, ...rest } = kept;
    const narrowed: DeactivatedProduct = { ...rest, former: pick(kept.former) ?? {} };
    const set = pick(kept.set);
    if (set) narrowed.set = set;
    const setOn = pick(kept.setOn);
    if (setOn && Object.keys(setOn).length > 0) narrowed.setOn = setOn;
    await this.replace(id, json, narrowed);
  }

  /** Replaces a record only while it is still `was` (another run may have changed it meanwhile). */
  private async replace(id: string, was: string, record: DeactivatedProduct): Promise<void> {
    await this.redis.eval(REPLACE_SCRIPT, 1, await this.hash(), id, was, JSON.stringify(record));
  }

  /** The records of these products (those without one are absent); what is not a record is ignored. */
  async getMany(ids: string[]): Promise<Map<string, DeactivatedProduct>> {
    const found = new Map<string, DeactivatedProduct>();
    if (ids.length === 0) return found;
    const values = await this.redis.hmget(await this.hash(), ...ids);
    values.forEach((value, i) => {
      const product = value ? parseRecord(value) : null;
      // A record is the product's it is kept under: one naming another is not trusted.
      if (product && product.id === ids[i]) found.set(product.id, product);
    });
    return found;
  }

  async clear(id: string): Promise<void> {
    await this.redis.hdel(await this.hash(), id);
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
    const { at, set, setOn } = parsed as { at?: unknown; set?: unknown; setOn?: unknown };
    if (typeof at === 'string' && isDay(at)) record.at = at;
    if (typeof setOn === 'object' && setOn !== null) {
      const days = Object.entries(setOn).filter((entry): entry is [string, string] => isDay(entry[1]));
      if (days.length > 0) record.setOn = Object.fromEntries(days);
    }
    if (typeof set === 'object' && set !== null) {
      record.set = {};
      for (const [field, value] of Object.entries(set)) if (isScalar(value)) record.set[field] = value;
    }
    return record;
  } catch {
    return null;
  }
}

function isDay(value: unknown): value is string {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);
}

function isScalar(value: unknown): value is CompactValue {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}
