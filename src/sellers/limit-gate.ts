import type { RedisKeys } from '../runs/keys.js';
import { LimitProbes } from './limit-probe.js';
import { LimitWindows } from './limit-window.js';
import { quotaDayStart } from './quota-day.js';
import type { Counters, Refusal, RequestQuota, Taken } from './request-quota.js';

const DAY_MS = 24 * 3600 * 1000;

/** A request's numbers (request-quota.ts), its window's start, and what to call once it is answered. */
export interface ReservedRequest extends Taken {
  windowStart: number;
  answered: () => void;
}

/** What the gate needs of the seller's state (seller-state.ts). */
export interface GateSeller {
  readonly quota: RequestQuota;
  readonly keys: RedisKeys;
  now(): number;
  assertNotPausedLocally(ref: string): void;
  /** The run's record is gone, or the budget is used up (the seller pauses until the quota day's end). */
  refuse(ref: string, refusal: Refusal, dayEnd: number, runId: string): Promise<never>;
}

/**
 * Hands out the seller's request numbers against its learned limit (issue 31): within it, as
 * before; past it, one request at a time (limit-probe.ts), no number held while a request waits,
 * so that a crossing costs one 429 and a budget is never used up by numbers that were not sent.
 */
export class LimitGate {
  readonly windows = new LimitWindows();
  private readonly probes = new LimitProbes();

  constructor(private readonly seller: GateSeller) {}

  /** Where the seller's requests are counted now: the quota day, and the limit window. */
  countersOf(ref: string, dailyReset: string): { counters: Counters; windowStart: number; dayStart: number } {
    const now = this.seller.now();
    const dayStart = quotaDayStart(now, dailyReset);
    const windowStart = this.windows.start(ref, now, dailyReset);
    const day = this.seller.keys.requestsUsed(ref, dayStart);
    const window = windowStart === dayStart ? day : this.seller.keys.requestsUsed(ref, windowStart);
    return { counters: { day, window }, windowStart, dayStart };
  }

  async reserve(
    ref: string,
    dailyReset: string,
    budget: number | null,
    run: { id: string; key: string } | undefined,
    gated: boolean,
  ): Promise<ReservedRequest> {
    for (;;) {
      if (gated) await this.probes.whileProbing(ref);
      this.seller.assertNotPausedLocally(ref);
      const { counters, windowStart, dayStart } = this.countersOf(ref, dailyReset);
      const limit = gated ? this.windows.limitOf(ref, windowStart) : null;
      const next = this.seller.quota.nextAtLeast(ref, counters);
      // Past the limit already: the request waits to be the probe before it takes a number.
      const probe =
        limit !== null && next !== null && next > limit ? await this.probes.probe(ref) : undefined;
      if (probe === null) continue;
      let taken: Taken | Refusal;
      try {
        // The requests the probe waited for may have met the 429 meanwhile.
        this.seller.assertNotPausedLocally(ref);
        taken = await this.seller.quota.takeNumbers(ref, counters, budget, run?.key ?? '');
      } catch (error) {
        probe?.();
        throw error;
      }
      if (!('day' in taken)) {
        probe?.();
        // Numbers that requests waiting for a probe give back: the budget is not used up yet.
        if (taken.refused === 'budget' && this.probes.busy(ref)) continue;
        return this.seller.refuse(ref, taken, dayStart + DAY_MS, run?.id ?? '');
      }
      if (probe) return { ...taken, windowStart, answered: probe };
      if (limit === null || taken.window <= limit) {
        return { ...taken, windowStart, answered: this.probes.sending(ref) };
      }
      // Taken past the limit (a block reserved anew, or the limit learned meanwhile): as a probe.
      const late = await this.probes.probe(ref);
      try {
        this.seller.assertNotPausedLocally(ref);
      } catch (pause) {
        late?.();
        await this.seller.quota.giveBackOne(counters);
        throw pause;
      }
      if (late) return { ...taken, windowStart, answered: late };
      await this.seller.quota.giveBackOne(counters);
    }
  }

  /**
   * The API answered `request` (anything but a 429): its day is open; `remaining`, when its headers
   * said it, is how many requests it still allows.
   */
  noteAnswer(ref: string, request: ReservedRequest, remaining: number | null): void {
    this.windows.noteOpen(ref, request.windowStart);
    if (remaining !== null) this.windows.noteRemaining(ref, request.windowStart, request.window, remaining);
  }
}
