import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { SettleFence } from '../runs/settle-fence.js';
import { ChunkLockLostError } from '../sync/chunk-lock-lost.js';

/** BullMQ's lock of a job: `prefix:QUEUE:ID:lock`, its value the token of the attempt holding it. */
export function jobLockKey(job: Job): string {
  return `${job.queueQualifiedName}:${job.id}:lock`;
}

/**
 * A chunk attempt's hold on its job lock, asked before each request of its rows. A worker whose lock
 * ran out while it still ran the chunk (its event loop blocked, Redis out of its reach for longer
 * than the lock, a long GC pause) has had the chunk handed out again by a stall check: sending on,
 * it would send the rows the new holder sends too (a request of the seller's day each, two writers
 * on one product). BullMQ tells of a lost lock only at its next renewal, after requests may have
 * gone; so the hold knows how long the lock is surely its own, and asks Redis only past that.
 *
 * The lock lasts at least `lockMs` from the job's take (`processedOn`, this worker's clock before
 * Redis set it) and from each renewal; a worker renews every half lock. Sure for half a lock from
 * the take, then for half what the lock's PTTL said when asked: a healthy chunk asks once per half
 * lock or so (two commands, one round trip), and none of its rows' requests waits on Redis. BullMQ
 * alone renews the lock: the hold only reads it.
 */
export class ChunkHold {
  private sureUntil: number;
  private lost = false;
  private asking: Promise<void> | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly jobId: string,
    readonly fence: SettleFence,
    takenAt: number,
    lockMs: number,
    private readonly now: () => number,
  ) {
    this.sureUntil = takenAt + lockMs / 2;
  }

  /** Found lost: another attempt holds the lock, or it ran out. */
  get isLost(): boolean {
    return this.lost;
  }

  /** Returns while the lock is this process's; rejects (ChunkLockLostError) once it is not. */
  check(): void | Promise<void> {
    if (this.lost) throw new ChunkLockLostError(this.jobId);
    if (this.now() < this.sureUntil) return;
    if (!this.asking) this.asking = this.ask().finally(() => (this.asking = null));
    return this.asking;
  }

  private async ask(): Promise<void> {
    const askedAt = this.now();
    const { lockKey, tokens } = this.fence;
    const answers = (await this.redis.multi().get(lockKey).pttl(lockKey).exec()) ?? [];
    for (const [error] of answers) if (error) throw error;
    const holder = answers[0]?.[1] as string | null;
    const left = Number(answers[1]?.[1]);
    // Gone (run out, nobody took it yet) is lost too: the next stall check hands the chunk out.
    if (holder === null || !tokens.has(holder) || !(left > 0)) {
      this.lost = true;
      throw new ChunkLockLostError(this.jobId);
    }
    this.sureUntil = askedAt + left / 2;
  }
}
