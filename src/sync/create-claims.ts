import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { CLAIM_MS } from '../defaults.js';
import { RunStateLostError } from '../redis/health.js';
import { TurnBatch } from '../redis/turn-batch.js';
import type { RedisKeys } from '../runs/keys.js';
import {
  applyClaimOps,
  type ClaimAnswer,
  type ClaimOp,
  type ClaimOpAnswer,
  type RenewOp,
} from './claim-ops.js';
import { idMapKeyOf } from './id-map-buckets.js';
import { decodeKnown, entryHead, type KnownProduct } from './id-map-entry.js';
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

export class CreateClaims {
  /**
   * A chunk's rows claim their keys together: the claims, renews and releases asked for in one turn
   * are applied by one script execution, in the order asked (claim-ops.ts).
   */
  private readonly batch: TurnBatch<ClaimOp | RenewOp, ClaimOpAnswer>;

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly sellerRef: string,
    private readonly now: () => number = Date.now,
    /** How long a claim holds without renewal; its holder renews it three times as often. */
    readonly claimMs: number = CLAIM_MS,
    /** The record of a run, checked with each claim (workers); absent: not checked. */
    private readonly runKeyOf: ((runId: string) => string) | null = null,
    /** The match field's space (match-space.ts): a claim and the id map it checks are the field's. */
    private readonly space = '',
  ) {
    this.batch = new TurnBatch((ops) => applyClaimOps(redis, this.claimsKey, ops));
  }

  /**
   * Claims `key` for a create by `runId`; `takeOver` is the stale value a look-up found nothing for.
   * A run whose record is gone (Redis lost its state) claims nothing: the id map and claims that keep
   * it from creating a product twice may be gone with it (request numbers are checked per block
   * only, request-quota.ts). `replacing`: the id of a product whose PUT answered 404, which the id
   * map may still hold under the key: not `known`, as the create is to replace it.
   */
  async claim(key: string, runId: string, takeOver = '', replacing = ''): Promise<Claim> {
    const token = randomUUID();
    await migrateOldIdMap(this.redis, this.keys, this.sellerRef);
    // A claim's answer is its kind and value (a renew's only is a boolean).
    const { kind, value } = (await this.batch.add({
      op: 'claim',
      key,
      bucketKey: idMapKeyOf(this.keys, this.sellerRef, key, this.space),
      runKey: this.runKeyOf?.(runId) ?? '',
      value: this.value(runId, token, this.now() + this.claimMs),
      now: this.now(),
      takeOver,
      replacing: replacing === '' ? '' : entryHead(replacing),
    })) as ClaimAnswer;
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
    return (await this.batch.add({ op: 'renew', key, prefix: token, value })) === true;
  }

  /** Gives the key up: the create was certainly not applied (a 429, a 401, a 400). */
  async release(key: string, token: string): Promise<void> {
    await this.batch.add({ op: 'renew', key, prefix: token, value: '' });
  }

  /**
   * Leaves the claim for a look-up: the create's outcome stayed unknown (answers lost every try), so
   * whoever claims the key next must look for the product before sending it again.
   */
  async leaveForLookUp(key: string, token: string): Promise<void> {
    await this.batch.add({ op: 'renew', key, prefix: token, value: `${token}0` });
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
    return this.keys.pendingCreates(this.sellerRef, this.space);
  }
}

/** When a create claim's value (`run|token|expiresAt`, CreateClaims.value) runs out; 0: left for a look-up. */
export function claimExpiresAt(value: string): number {
  return Number(value.slice(value.lastIndexOf('|') + 1));
}
