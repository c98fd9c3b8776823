import type { Redis } from 'ioredis';
import type { RedisKeys } from '../runs/keys.js';
import { learnLimit } from '../runs/learned-limit.js';
import type { AcceptedCount } from './quota-terms.js';

/** Windows kept per seller: one no 429 ended while two later ones began teaches nothing any more. */
const KEPT_WINDOWS = 3;

/**
 * The seller's requests this process sent that the API accepted (answered other than with a 429),
 * by limit window, and their count in Redis: the learned limit is the window's accepted requests
 * across processes (runs/learned-limit.ts), not a refused request's number, which with several
 * processes is not its place in the API's count (numbers go out in blocks). Counted in memory and
 * sent to Redis with a learned limit's script once the seller has a limit (a chunk's end, a 429, a
 * pause another process set); before that, with the give-back of the day's unused numbers at a
 * chunk's end (`withGiveBack`): the first 429 then counts the requests of every earlier run and
 * process of the window, and a seller that never met a 429 costs no command of its own for them.
 */
export class AcceptedAnswers {
  private readonly counts = new Map<string, Map<number, number>>();

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly now: () => number,
    /** The limit Redis keeps after a count: what this process holds back by (limit-window.ts). */
    private readonly learned: (ref: string, limit: number) => void,
  ) {}

  /** The API accepted a request (`count`) of the window that began at `windowStart`. */
  note(ref: string, windowStart: number, count = 1): void {
    const windows = this.counts.get(ref) ?? new Map<number, number>();
    windows.set(windowStart, (windows.get(windowStart) ?? 0) + count);
    this.counts.set(ref, windows);
    if (windows.size > KEPT_WINDOWS) windows.delete(Math.min(...windows.keys()));
  }

  /** The count not yet sent to Redis of the window that began at `windowStart`. */
  pending(ref: string, windowStart: number): number {
    return this.counts.get(ref)?.get(windowStart) ?? 0;
  }

  /**
   * With no limit known: `giveBack` sends the count of the seller's latest window with the numbers
   * it gives back, if it gives any back (it calls the handover then); those of earlier windows go:
   * only the current window's count can teach a limit. Not sent: kept for the next time.
   */
  async withGiveBack(
    ref: string,
    giveBack: (handover: () => AcceptedCount | null) => Promise<void>,
  ): Promise<void> {
    // Declared wide: the handover sets it (a narrowing to null would not see that).
    let handed = null as AcceptedCount | null;
    try {
      await giveBack(() => {
        const windows = this.counts.get(ref);
        this.counts.delete(ref);
        const windowStart = Math.max(...(windows?.keys() ?? []));
        const count = windows?.get(windowStart) ?? 0;
        handed = count > 0 ? { key: this.keys.acceptedRequests(ref), windowStart, count } : null;
        return handed;
      });
    } catch (error) {
      if (handed) this.note(ref, handed.windowStart, handed.count);
      throw error;
    }
  }

  /**
   * Sends the window's count to Redis and learns the limit it gives: `refused`, a 429 of the window
   * came here (it teaches the limit; else only a limit that window taught already is raised).
   * The counts of earlier windows go: a later window's limit holds.
   */
  async count(ref: string, windowStart: number, refused: boolean): Promise<void> {
    const windows = this.counts.get(ref);
    const accepted = windows?.get(windowStart) ?? 0;
    for (const start of windows?.keys() ?? []) if (start <= windowStart) windows?.delete(start);
    if (windows?.size === 0) this.counts.delete(ref);
    const window = { windowStart, accepted, refused, at: this.now() };
    const limit = await learnLimit(this.redis, this.keys, ref, window);
    if (limit !== null) this.learned(ref, limit);
  }

  /** Sends the counts of the windows that began before `instant` (a 429 ended them). */
  async countBefore(ref: string, instant: number): Promise<void> {
    const starts = [...(this.counts.get(ref)?.keys() ?? [])].filter((start) => start < instant);
    for (const start of starts.sort((a, b) => a - b)) await this.count(ref, start, false);
  }
}
