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

// KEYS: the day's counter, the run's record ('' when none), the limit window's counter (the day's
// again when the window is the day). ARGV: block size, budget (-1: none), TTL s.
// Returns {first number - 1, numbers reserved, first number in the window - 1}; {-1, 0, 0} when the
// run's record is gone.
const RESERVE_BLOCK = luaScript(
  'reserveRequests',
  3,
  `
if KEYS[2] ~= '' and redis.call('HEXISTS', KEYS[2], 'spec') == 0 then return {-1, 0, 0} end
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local size = tonumber(ARGV[1])
local budget = tonumber(ARGV[2])
if budget >= 0 then size = math.min(size, budget - used) end
if size <= 0 then return {used, 0, 0} end
redis.call('INCRBY', KEYS[1], size)
redis.call('EXPIRE', KEYS[1], ARGV[3])
local windowUsed = used
if KEYS[3] ~= KEYS[1] then
  windowUsed = tonumber(redis.call('GET', KEYS[3]) or '0')
  redis.call('INCRBY', KEYS[3], size)
  redis.call('EXPIRE', KEYS[3], ARGV[3])
end
return {used, size, windowUsed}
`,
);

// KEYS: the day's counter, the window's (the day's again when the same). ARGV: unused numbers. A
// counter gone meanwhile (FLUSHALL) stays gone.
const GIVE_BACK = luaScript(
  'giveBackRequests',
  2,
  `
local left = 0
for i, key in ipairs(KEYS) do
  if (i == 1 or key ~= KEYS[1]) and redis.call('EXISTS', key) == 1 then left = redis.call('DECRBY', key, ARGV[1]) end
end
return left
`,
);

/** A block sized to keep `concurrency` requests going for two rounds: 16 to 64. */
export function blockSizeFor(concurrency: number): number {
  return Math.min(QUOTA_BLOCK_MAX, Math.max(QUOTA_BLOCK_MIN, 2 * concurrency));
}

/** Why no number was handed out: the run's record is gone, or the budget is used up. */
export type Refusal = { refused: 'lost' } | { refused: 'budget'; used: number };

/**
 * The numbers of one request: in the quota day (`--daily-reset`, what the budget counts), and in
 * the limit window (since the reset the API's last 429 announced: what the learned limit counts).
 */
export interface Taken {
  day: number;
  window: number;
}

/** Where a seller's requests are counted: the quota day's counter, and the limit window's (the day's when the same). */
export interface Counters {
  day: string;
  window: string;
}

interface Block {
  counters: Counters;
  next: number;
  last: number;
  /** The window's number of a request minus its day's number. */
  windowOffset: number;
}

const sameCounters = (a: Counters, b: Counters) => a.day === b.day && a.window === b.window;

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
    const taken = await this.takeNumbers(ref, { day: counterKey, window: counterKey }, budget, runKey);
    return 'day' in taken ? taken.day : taken;
  }

  /** As `take`, with the request's number in the limit window too (`counters.window`). */
  async takeNumbers(
    ref: string,
    counters: Counters,
    budget: number | null,
    runKey: string,
  ): Promise<Taken | Refusal> {
    for (;;) {
      const block = this.blocks.get(ref);
      if (block && !sameCounters(block.counters, counters)) await this.returnUnused(ref);
      else if (block && block.next <= block.last) {
        const day = block.next++;
        return { day, window: day + block.windowOffset };
      }
      const pending = this.reserving.get(ref);
      if (pending) {
        await pending;
        continue;
      }
      const reserve = this.reserve(ref, counters, budget, runKey);
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
    counters: Counters,
    budget: number | null,
    runKey: string,
  ): Promise<Refusal | null> {
    const [used, size, windowUsed] = (await runScript(
      this.redis,
      RESERVE_BLOCK,
      counters.day,
      runKey,
      counters.window,
      this.blockSize,
      budget ?? -1,
      QUOTA_COUNTER_TTL_SECONDS,
    )) as [number, number, number];
    if (used < 0) return { refused: 'lost' };
    if (size === 0) return { refused: 'budget', used };
    this.blocks.set(ref, { counters, next: used + 1, last: used + size, windowOffset: windowUsed - used });
    return null;
  }

  /**
   * The window number the seller's next take here hands out at least (its block's next; a block
   * reserved anew starts past it), or null while this process holds no block of these counters.
   */
  nextAtLeast(ref: string, counters: Counters): number | null {
    const block = this.blocks.get(ref);
    return block && sameCounters(block.counters, counters) ? block.next + block.windowOffset : null;
  }

  /** A number taken but not sent (the seller paused meanwhile) goes back to the counts. */
  async giveBackOne(counters: Counters): Promise<void> {
    await runScript(this.redis, GIVE_BACK, counters.day, counters.window, 1);
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
    if (unused > 0) await runScript(this.redis, GIVE_BACK, block.counters.day, block.counters.window, unused);
  }
}
