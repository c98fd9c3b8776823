import type { Redis } from 'ioredis';
import { QUOTA_BLOCK_MAX, QUOTA_BLOCK_MIN, QUOTA_COUNTER_TTL_SECONDS } from '../defaults.js';
import { luaScript, runScript } from '../redis/scripts.js';

/**
 * The seller's requests of a quota day, counted in blocks (issue 12): a process reserves a block of
 * request numbers with one round trip and hands them out in memory, instead of one INCR per request.
 * What it did not use goes back when no chunk of the seller is under way in this process any more,
 * when the quota day turns, and when the process closes; so the day's count (`status`, the plan, the
 * daily budget) is exact whenever no process holds a block.
 *
 * A process killed while it holds a block (SIGKILL, a crash) cannot give it back: the day's count
 * then overcounts by at most one block per killed process (≤ QUOTA_BLOCK_MAX requests), until the day
 * turns. With a daily budget, a block never reaches past it (the script clamps it), so no process
 * sends more than the budget; another live process's unused block may make a pause come that many
 * requests early, until it is given back.
 */

// KEYS: the day's counter, the run's record ('' when none). ARGV: block size, budget (-1: none), TTL s.
// Returns {first number - 1, numbers reserved}; {-1, 0} when the run's record is gone.
const RESERVE_BLOCK = luaScript(
  'reserveRequests',
  2,
  `
if KEYS[2] ~= '' and redis.call('HEXISTS', KEYS[2], 'spec') == 0 then return {-1, 0} end
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local size = tonumber(ARGV[1])
local budget = tonumber(ARGV[2])
if budget >= 0 then size = math.min(size, budget - used) end
if size <= 0 then return {used, 0} end
redis.call('INCRBY', KEYS[1], size)
redis.call('EXPIRE', KEYS[1], ARGV[3])
return {used, size}
`,
);

// KEYS: the day's counter. ARGV: unused numbers. A counter gone meanwhile (FLUSHALL) stays gone.
const GIVE_BACK = luaScript(
  'giveBackRequests',
  1,
  "if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('DECRBY', KEYS[1], ARGV[1]) end return 0",
);

/** A block sized to keep `concurrency` requests going for two rounds: 16 to 64. */
export function blockSizeFor(concurrency: number): number {
  return Math.min(QUOTA_BLOCK_MAX, Math.max(QUOTA_BLOCK_MIN, 2 * concurrency));
}

/** Why no number was handed out: the run's record is gone, or the budget is used up. */
export type Refusal = { refused: 'lost' } | { refused: 'budget'; used: number };

interface Block {
  counterKey: string;
  next: number;
  last: number;
}

export class RequestQuota {
  private readonly blocks = new Map<string, Block>();
  private readonly reserving = new Map<string, Promise<unknown>>();
  private readonly active = new Map<string, number>();

  constructor(
    private readonly redis: Redis,
    public blockSize = QUOTA_BLOCK_MIN,
  ) {}

  /**
   * The number of the request about to be sent, in the seller's quota day (`counterKey`), or why
   * none may be sent. `runKey`: the run's record, checked with each block.
   */
  async take(
    ref: string,
    counterKey: string,
    budget: number | null,
    runKey: string,
  ): Promise<number | Refusal> {
    for (;;) {
      const block = this.blocks.get(ref);
      if (block && block.counterKey !== counterKey) await this.returnUnused(ref);
      else if (block && block.next <= block.last) return block.next++;
      const pending = this.reserving.get(ref);
      if (pending) {
        await pending;
        continue;
      }
      const reserve = this.reserve(ref, counterKey, budget, runKey);
      this.reserving.set(ref, reserve);
      try {
        const refusal = await reserve;
        if (refusal) return refusal;
      } finally {
        this.reserving.delete(ref);
      }
    }
  }

  private async reserve(
    ref: string,
    counterKey: string,
    budget: number | null,
    runKey: string,
  ): Promise<Refusal | null> {
    const [used, size] = (await runScript(
      this.redis,
      RESERVE_BLOCK,
      counterKey,
      runKey,
      this.blockSize,
      budget ?? -1,
      QUOTA_COUNTER_TTL_SECONDS,
    )) as [number, number];
    if (used < 0) return { refused: 'lost' };
    if (size === 0) return { refused: 'budget', used };
    this.blocks.set(ref, { counterKey, next: used + 1, last: used + size });
    return null;
  }

  /** A chunk of the seller starts in this process: its block stays until the last one ends. */
  hold(ref: string): void {
    this.active.set(ref, (this.active.get(ref) ?? 0) + 1);
  }

  /** A chunk of the seller ended: with none left under way here, the unused numbers go back. */
  async release(ref: string): Promise<void> {
    const left = (this.active.get(ref) ?? 1) - 1;
    if (left > 0) {
      this.active.set(ref, left);
      return;
    }
    this.active.delete(ref);
    await this.returnUnused(ref);
  }

  /** Gives back every seller's unused numbers (the process closes). */
  async giveBackAll(): Promise<void> {
    await Promise.all([...this.blocks.keys()].map((ref) => this.returnUnused(ref)));
  }

  /** Gives the seller's unused numbers back now (the plan reads the day's count); the next take reserves anew. */
  async returnUnused(ref: string): Promise<void> {
    const block = this.blocks.get(ref);
    if (!block) return;
    this.blocks.delete(ref);
    const unused = block.last - block.next + 1;
    if (unused > 0) await runScript(this.redis, GIVE_BACK, block.counterKey, unused);
  }
}
