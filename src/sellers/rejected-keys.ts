import type { Redis } from 'ioredis';
import type { RedisKeys } from '../runs/keys.js';

/**
 * The keys the API rejected (401) for a seller, by fingerprint (sellerRef of the base URL and the
 * key: nothing stored turns back into a key). A process that holds such a key sends nothing with it:
 * a worker that read a mistyped key at its start, still holding it after the key was fixed elsewhere
 * and `resume` lifted the pause, would spend a request on a second 401 and pause the seller again.
 *
 * Written with the seller's rejected mark (SellerState.markAuthRejected), or alone by a dry run's 401
 * (`add`: its queue is its own, so no seller is paused for it). A key leaves the list when a
 * ping with it is accepted (`resume`, or `run` checking its key): the marketplace took it back. The
 * list goes whole when `cancel` lifts the mark of a seller with nothing queued (idle-seller-marks.ts):
 * the next run starts afresh, as a run with a key still wrong meets the 401 again.
 */
export class RejectedKeys {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** The fingerprints of the seller's rejected keys (none, nearly always: one command). */
  async of(ref: string): Promise<Set<string>> {
    return new Set(await this.redis.hkeys(this.keys.rejectedKeys(ref)));
  }

  /** How many of the seller's keys were rejected (`status` says why a run waits). */
  async count(ref: string): Promise<number> {
    return this.redis.hlen(this.keys.rejectedKeys(ref));
  }

  /** Whether the key of this fingerprint was rejected for the seller. */
  async has(ref: string, fingerprint: string): Promise<boolean> {
    return (await this.redis.hexists(this.keys.rejectedKeys(ref), fingerprint)) === 1;
  }

  /** Lists a key the API rejected, pausing no seller (a dry run's own queue: own-queue-401.ts). */
  async add(ref: string, fingerprint: string, at: number): Promise<void> {
    await this.redis.hset(this.keys.rejectedKeys(ref), fingerprint, at);
  }

  /** A ping with the key was accepted: it serves again. True when it had been rejected. */
  async accepted(ref: string, fingerprint: string): Promise<boolean> {
    return (await this.redis.hdel(this.keys.rejectedKeys(ref), fingerprint)) === 1;
  }

  /** Forgets every rejected key of the seller (its mark lifted by `cancel`). */
  async forget(ref: string): Promise<void> {
    await this.redis.del(this.keys.rejectedKeys(ref));
  }
}
