import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { CLAIM_MS } from '../defaults.js';
import { RunStateLostError } from '../redis/health.js';
import { ScriptBatch } from '../redis/script-batch.js';
import { luaScript } from '../redis/scripts.js';
import type { RedisKeys } from '../runs/keys.js';
import { idMapKeyOf } from './id-map-buckets.js';
import { decodeKnown, type KnownProduct } from './id-map-entry.js';
import { migrateOldIdMap } from './id-map-migration.js';

/**
 * One product per key, whatever overlaps (issue 9): two runs of one seller at once, a run queued
 * behind one that waits on the daily limit, a chunk handed out again while its first worker lives.
 *
 * Before a POST, the row claims its match key in one Redis script that also reads the seller's id
 * map: a key someone created meanwhile is `known`, a key another live create holds is `held`, a
 * claim whose holder stopped renewing it (dead, or its answer was lost for good) is `stale` and is
 * taken over only after a look-up. A claim is `run|token|expiresAt`; its holder renews it while the
 * create is under way, and the record of the created product releases it in the same step.
 */
export type Claim =
  | { kind: 'claimed'; token: string }
  | { kind: 'known'; product: KnownProduct }
  | { kind: 'held'; by: string }
  | { kind: 'stale'; value: string };

// KEYS: claims hash, the id map's bucket of the key, the run's record ('' to not check it). ARGV: key, claim value, now, stale value to take over
// ('' for none). A run whose record is gone (Redis lost its state) claims nothing: the id map and
// claims that keep it from creating a product twice may be gone with it (request numbers are
// checked per block only, request-quota.ts).
const CLAIM_SCRIPT = luaScript(
  'claimCreate',
  3,
  `
if KEYS[3] ~= '' and redis.call('HEXISTS', KEYS[3], 'spec') == 0 then return {'lost', ''} end
local known = redis.call('HGET', KEYS[2], ARGV[1])
if known then return {'known', known} end
local held = redis.call('HGET', KEYS[1], ARGV[1])
if held and held ~= ARGV[4] then
  local expires = tonumber(string.match(held, '|(%d+)$')) or 0
  if expires > tonumber(ARGV[3]) then return {'held', held} end
  return {'stale', held}
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return {'claimed', ''}
`,
);

// KEYS: claims hash. ARGV: key, claim prefix (run|token|), new value. Only the holder may change it.
const RENEW_SCRIPT = luaScript(
  'renewClaim',
  1,
  `
local held = redis.call('HGET', KEYS[1], ARGV[1])
if not held or string.sub(held, 1, #ARGV[2]) ~= ARGV[2] then return 0 end
if ARGV[3] == '' then return redis.call('HDEL', KEYS[1], ARGV[1]) end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
`,
);

export class CreateClaims {
  /** A chunk's rows claim their keys together: their scripts share one round trip. */
  private readonly batch: ScriptBatch;

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly sellerRef: string,
    private readonly now: () => number = Date.now,
    /** How long a claim holds without renewal; its holder renews it three times as often. */
    readonly claimMs: number = CLAIM_MS,
    /** The record of a run, checked with each claim (workers); absent: not checked. */
    private readonly runKeyOf: ((runId: string) => string) | null = null,
  ) {
    this.batch = new ScriptBatch(redis);
  }

  /** Claims `key` for a create by `runId`; `takeOver` is the stale value a look-up found nothing for. */
  async claim(key: string, runId: string, takeOver = ''): Promise<Claim> {
    const token = randomUUID();
    await migrateOldIdMap(this.redis, this.keys, this.sellerRef);
    const [kind, value] = (await this.batch.run(
      CLAIM_SCRIPT,
      this.keys.pendingCreates(this.sellerRef),
      idMapKeyOf(this.keys, this.sellerRef, key),
      this.runKeyOf?.(runId) ?? '',
      key,
      this.value(runId, token, this.now() + this.claimMs),
      this.now(),
      takeOver,
    )) as [Claim['kind'] | 'lost', string];
    switch (kind) {
      case 'lost':
        throw new RunStateLostError(runId);
      case 'claimed':
        return { kind, token: `${runId}|${token}|` };
      case 'known':
        return { kind, product: decodeKnown(key, value) };
      case 'held':
        return { kind, by: value.split('|')[0] ?? '' };
      case 'stale':
        return { kind, value };
    }
  }

  /** Keeps a claim alive while its create is under way; false when it is no longer ours. */
  async renew(key: string, token: string): Promise<boolean> {
    const value = `${token}${this.now() + this.claimMs}`;
    return (await this.batch.run(RENEW_SCRIPT, this.claimsKey, key, token, value)) === 1;
  }

  /** Gives the key up: the create was certainly not applied (a 429, a 401, a 400). */
  async release(key: string, token: string): Promise<void> {
    await this.batch.run(RENEW_SCRIPT, this.claimsKey, key, token, '');
  }

  /**
   * Leaves the claim for a look-up: the create's outcome stayed unknown (answers lost every try), so
   * whoever claims the key next must look for the product before sending it again.
   */
  async leaveForLookUp(key: string, token: string): Promise<void> {
    await this.batch.run(RENEW_SCRIPT, this.claimsKey, key, token, `${token}0`);
  }

  /** For each key, the run whose claim holds it, or null. */
  async holders(keys: string[]): Promise<(string | null)[]> {
    if (keys.length === 0) return [];
    const values = await this.redis.hmget(this.claimsKey, ...keys);
    return values.map((value) => (value ? (value.split('|')[0] ?? null) : null));
  }

  private value(runId: string, token: string, expiresAt: number): string {
    return `${runId}|${token}|${expiresAt}`;
  }

  private get claimsKey(): string {
    return this.keys.pendingCreates(this.sellerRef);
  }
}
