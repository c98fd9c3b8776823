import type { Job } from 'bullmq';
import { CHUNK_ATTEMPTS_REMEMBERED, DEFAULT_LOCK_MS } from '../defaults.js';
import { type Repeat, renewWhile, repeatEvery } from '../redis/renew-while.js';

/** An attempt at a chunk in this process: which of the job's attempts it was (BullMQ's count). */
interface OwnAttempt {
  started: number;
  ended: Promise<void>;
  /** The job lock tokens of the chunk's attempts under way here, one after the other (chunk-hold.ts). */
  tokens: Set<string>;
}

/**
 * The chunk attempts of this process, one after the other per chunk. A worker cut off from Redis
 * for longer than a job's lock (Redis restarted, its AOF keeping the lock's expiry as a time) finds
 * its chunks' locks run out when Redis is back: its own stall check hands them out again, often to
 * itself, while their first attempts still go on. The second attempt would read the rows the first
 * had not settled yet and send them again; here it waits for the first to end, then finds them
 * settled (or the run done) and sends nothing more.
 */
export class ChunkAttempts {
  private readonly underWay = new Map<string, OwnAttempt>();
  /** The last attempts ended here, oldest first (a bounded few: a chunk comes back within seconds). */
  private readonly endedHere = new Map<string, number>();

  constructor(
    /** The workers' job lock: renewed here for an attempt that waited (BullMQ no longer does). */
    readonly lockMs = DEFAULT_LOCK_MS,
    private readonly repeat: Repeat = repeatEvery,
  ) {}

  /**
   * Runs `attempt` once no earlier attempt at the same chunk is under way in this process.
   * `followsOwn`: the job's previous attempt was this process's, and ended before this one began;
   * the requests it sent were added to the run as it ended, none is lost.
   * `tokens`: the lock tokens of the chunk's attempts under way here, this one's included: an earlier
   * one goes on sending and settling while a later one here holds the lock, since that one waits for it.
   */
  async inTurn<T>(
    job: Job,
    token: string | undefined,
    attempt: (followsOwn: boolean, tokens: ReadonlySet<string>) => Promise<T>,
  ): Promise<T> {
    const chunk = `${job.queueName}\n${job.id}`;
    const earlier = this.underWay.get(chunk);
    const previous = earlier?.started ?? this.endedHere.get(chunk);
    const followsOwn = previous !== undefined && previous === job.attemptsStarted - 1;
    let end = () => {};
    const tokens = earlier?.tokens ?? new Set<string>();
    if (token) tokens.add(token);
    const ended = new Promise<void>((resolve) => (end = resolve));
    const mine = { started: job.attemptsStarted, ended, tokens };
    this.underWay.set(chunk, mine);
    try {
      if (!earlier) return await attempt(followsOwn, tokens);
      await earlier.ended;
      // BullMQ tracks a job's lock by its id alone: the earlier attempt's end stopped the renewal
      // of this one's lock, which would run out (and the chunk be handed out a third time). Renewed
      // at once too: BullMQ's last renewal may have left it less than half a lock.
      if (!token) return await attempt(followsOwn, tokens);
      const renew = () => job.extendLock(token, this.lockMs);
      await renew().catch(() => undefined);
      const run = () => attempt(followsOwn, tokens);
      return await renewWhile(renew, Math.ceil(this.lockMs / 2), run, this.repeat);
    } finally {
      end();
      if (this.underWay.get(chunk) === mine) this.underWay.delete(chunk);
      this.remember(chunk, mine.started);
    }
  }

  private remember(chunk: string, started: number): void {
    this.endedHere.delete(chunk);
    this.endedHere.set(chunk, started);
    for (const oldest of this.endedHere.keys()) {
      if (this.endedHere.size <= CHUNK_ATTEMPTS_REMEMBERED) break;
      this.endedHere.delete(oldest);
    }
  }
}
