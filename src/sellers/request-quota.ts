import type { Redis } from 'ioredis';
import {
  LIMITED_BLOCK_FRESH_MS,
  QUOTA_BLOCK_MAX,
  QUOTA_BLOCK_MIN,
  QUOTA_COUNTER_TTL_SECONDS,
} from '../defaults.js';
import { runScript } from '../redis/scripts.js';
import type { AcceptedCount, Counters, Refusal, Taken, WindowLimit } from './quota-terms.js';
import { GIVE_BACK, RESERVE_BLOCK } from './request-quota-scripts.js';
import { WindowAnswers } from './window-answers.js';

export type { AcceptedCount, Counters, Refusal, Taken, WindowLimit };

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
 * requests early, until it is given back; its numbers stay counted held (`status`: reserved).
 *
 * The numbers held in blocks are counted too (Counters.reserved), with the reservations and
 * give-backs there are anyway: the day's count less them is requests sent, which `status` shows.
 *
 * With a known limit (limit-gate.ts), the requests answered are reported too, by window, with the
 * reservations and give-backs there are anyway: past the limit a number goes out only once the
 * window's requests are all answered, in every process (request-quota-scripts.ts).
 */

/** A block sized to keep `concurrency` requests going for two rounds: 16 to 64. */
export function blockSizeFor(concurrency: number): number {
  return Math.min(QUOTA_BLOCK_MAX, Math.max(QUOTA_BLOCK_MIN, 2 * concurrency));
}

interface Block {
  counters: Counters;
  next: number;
  last: number;
  /** Its numbers, counted held (Counters.reserved) until it is given back or replaced. */
  size: number;
  /** The window's number of a request minus its day's number. */
  windowOffset: number;
  /**
   * Reserved against a limit: until when (ms) its numbers may go without a look at Redis. Another
   * process's 429 pauses the seller and a reset begins another window unseen by a process that
   * only uses a block it holds; an older block goes back and the next number is reserved anew.
   */
  freshUntil?: number;
  /** Its one number goes alone (quota-terms.ts Taken). */
  alone?: boolean;
}

const sameCounters = (a: Counters, b: Counters) => a.day === b.day && a.window === b.window;

export class RequestQuota {
  private readonly blocks = new Map<string, Block>();
  private readonly reserving = new Map<string, Promise<unknown>>();
  private readonly active = new Map<string, number>();
  /** Requests answered here not yet reported, by the window's answered count. */
  private readonly answers: WindowAnswers;

  constructor(
    private readonly redis: Redis,
    public blockSize = QUOTA_BLOCK_MIN,
  ) {
    this.answers = new WindowAnswers(redis);
  }

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
    limit?: WindowLimit,
  ): Promise<Taken | Refusal> {
    for (;;) {
      const block = this.blocks.get(ref);
      const stale = block?.freshUntil !== undefined && limit !== undefined && limit.now > block.freshUntil;
      if (block && (stale || !sameCounters(block.counters, counters))) {
        // Looked at anew: while it went back, another take may have reserved the block to use
        // (reserving one more here would replace it, its numbers held and never sent).
        await this.returnUnused(ref);
        continue;
      }
      if (block && block.next <= block.last) {
        const day = block.next++;
        return { day, window: day + block.windowOffset, ...(block.alone ? { alone: true } : {}) };
      }
      const pending = this.reserving.get(ref);
      if (pending) {
        await pending;
        continue;
      }
      const reserve = this.reserve(ref, counters, budget, runKey, limit);
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
    limit: WindowLimit | undefined,
  ): Promise<Refusal | null> {
    // Reported only with a limit: the script counts them only then.
    const answered = limit ? this.takeAnswers(counters) : 0;
    // A used-up block of these counters that the new one replaces is held no more.
    const old = this.blocks.get(ref);
    const replaced = old && sameCounters(old.counters, counters) && old.next > old.last ? old.size : 0;
    let reply: [number, number, number, number, number, string?];
    try {
      reply = (await runScript(
        this.redis,
        RESERVE_BLOCK,
        counters.day,
        runKey || counters.day,
        counters.window,
        // Read only with a limit; else the day's counter again, in the seller's slot on a cluster.
        limit?.pausedKey ?? counters.day,
        limit?.causeKey ?? counters.day,
        limit?.resetKey ?? counters.day,
        counters.answered ?? counters.day,
        limit?.learnedKey ?? counters.day,
        counters.reserved ?? counters.day,
        this.blockSize,
        budget ?? -1,
        QUOTA_COUNTER_TTL_SECONDS,
        limit ? 0 : -1,
        limit?.windowStart ?? 0,
        limit?.now ?? 0,
        answered,
        limit?.force ? 1 : 0,
        limit?.unopened ? 1 : 0,
        limit?.last ?? -1,
        limit?.cap ?? -1,
        replaced,
      )) as [number, number, number, number, number, string?];
    } catch (error) {
      this.noteAnswered(counters, answered);
      throw error;
    }
    const [used, size, windowUsed, none, instant, cause] = reply;
    if (none === 1) return { refused: 'lost' };
    if (none === 2) return { refused: 'paused', until: instant, cause: cause ?? '' };
    if (none === 3) return { refused: 'moved', reset: instant };
    if (none === 4) return { refused: 'wait' };
    if (size === 0) return { refused: 'budget', used };
    this.blocks.set(ref, {
      counters,
      next: used + 1,
      last: used + size,
      size,
      windowOffset: windowUsed - used,
      ...(limit ? { freshUntil: limit.now + LIMITED_BLOCK_FRESH_MS } : {}),
      ...(instant === 1 && size === 1 ? { alone: true } : {}),
    });
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
    await this.giveBack(counters, 1, 0);
  }

  /**
   * A request of the window (`counters`) taken against a known limit was answered, or failed: it
   * is reported with this process's next reservation or give-back (`count`: more than one).
   */
  noteAnswered(counters: Counters, count = 1): void {
    if (counters.answered) this.answers.note(counters.answered, count);
  }

  private takeAnswers(counters: Counters): number {
    return this.answers.take(counters.answered);
  }

  /** `released`: the numbers of a block given back whole (no longer held). */
  private async giveBack(
    counters: Counters,
    unused: number,
    released: number,
    accepted?: AcceptedCount,
  ): Promise<void> {
    const answered = this.takeAnswers(counters);
    if (unused <= 0 && answered <= 0 && released <= 0 && !accepted) return;
    const { day, window } = counters;
    await runScript(
      this.redis,
      GIVE_BACK,
      day,
      window,
      counters.answered ?? day,
      accepted?.key ?? day,
      counters.reserved ?? day,
      unused,
      answered,
      QUOTA_COUNTER_TTL_SECONDS,
      accepted?.windowStart ?? 0,
      accepted?.count ?? 0,
      released,
    );
  }

  /** A chunk of the seller starts in this process: its block stays until the last one ends. */
  hold(ref: string): void {
    this.active.set(ref, (this.active.get(ref) ?? 0) + 1);
  }

  /**
   * A chunk of the seller ended: with none left under way here, the unused numbers go back, and
   * with them what `accepted` hands over then (no command of its own while numbers go back).
   */
  async release(ref: string, accepted?: () => AcceptedCount | null): Promise<void> {
    const left = (this.active.get(ref) ?? 1) - 1;
    if (left > 0) {
      this.active.set(ref, left);
      return;
    }
    this.active.delete(ref);
    await this.returnUnused(ref, accepted);
  }

  /** Gives back every seller's unused numbers (the process closes). */
  async giveBackAll(): Promise<void> {
    await Promise.all([...this.blocks.keys()].map((ref) => this.returnUnused(ref)));
    await this.answers.report();
  }

  /** Gives the seller's unused numbers back now (the plan reads the day's count); the next take reserves anew. */
  async returnUnused(ref: string, accepted?: () => AcceptedCount | null): Promise<void> {
    const block = this.blocks.get(ref);
    if (!block) return;
    this.blocks.delete(ref);
    await this.giveBack(block.counters, block.last - block.next + 1, block.size, accepted?.() ?? undefined);
  }
}
