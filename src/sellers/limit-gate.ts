import { setTimeout as sleep } from 'node:timers/promises';
import { LIMIT_PROBE_POLL_MS, LIMIT_PROBE_WAIT_MAX_MS } from '../defaults.js';
import type { RedisKeys } from '../runs/keys.js';
import { LimitProbes } from './limit-probe.js';
import { LimitWindows } from './limit-window.js';
import type { Counters, Refusal, RequestQuota, Taken, WindowLimit } from './request-quota.js';
import { type Rebase, rebaseOf } from './window-rebase.js';

const DAY_MS = 24 * 3600 * 1000;

/** A request's numbers (request-quota.ts), its window's start, and what to call once it is answered. */
export interface ReservedRequest extends Taken {
  windowStart: number;
  answered: () => void;
  /**
   * The API answered it 429 (call before `answered`): it is not reported answered, so no other
   * process sends past the limit before the pause it brings is in Redis (one 429 per crossing).
   */
  refused?: () => void;
  /**
   * It never reached the API (its connection was never made; call before `answered`): its number
   * goes back to the day's and the window's counts, as if never taken, and it is not reported
   * answered (it is no longer in flight either). The API neither counted nor applied it.
   */
  notSent?: () => Promise<void>;
}

/** What the gate needs of the seller's state (seller-state.ts). */
export interface GateSeller {
  readonly quota: RequestQuota;
  readonly keys: RedisKeys;
  now(): number;
  assertNotPausedLocally(ref: string): void;
  /** The run's record is gone, or the budget is used up (the seller pauses until the quota day's end). */
  refuse(ref: string, refusal: Refusal, dayEnd: number, runId: string): Promise<never>;
  /** Begins the window anew (window-rebase.ts): true when this call did. */
  rebase(ref: string, window: { from: number; now: number; rebase: Rebase }): Promise<boolean>;
}

/**
 * Hands out the seller's request numbers against its learned limit (issue 31): within it, as
 * before; past it, one request at a time (limit-probe.ts), no number held while a request waits,
 * so that a crossing costs one 429 and a budget is never used up by numbers that were not sent.
 * Across processes the reservation script keeps blocks within the limit, hands out a number past
 * it only once every request of the window is answered in every process (one in flight across
 * them), and none once another process's 429 paused the seller: a crossing costs one 429 while the
 * window is the API's day (request-quota-scripts.ts).
 */
export class LimitGate {
  readonly windows = new LimitWindows();
  private readonly probes = new LimitProbes();
  /** A window begun anew from the API's figure, not yet in Redis: the next request waits for it. */
  private readonly rebasing = new Map<string, Promise<void>>();

  constructor(private readonly seller: GateSeller) {}

  /**
   * Where the seller's requests are counted now: its day (quota-day.ts sellerDayStart), which is the
   * limit window too, and what `status`, the plan and the daily budget read.
   */
  countersOf(ref: string, dailyReset: string): { counters: Counters; windowStart: number; dayStart: number } {
    const dayStart = this.windows.start(ref, this.seller.now(), dailyReset);
    const windowStart = dayStart;
    const day = this.seller.keys.requestsUsed(ref, dayStart);
    const window = day;
    // Answers are reported once the seller has a limit (else: no command for them).
    const answered = this.windows.knowsLimit(ref)
      ? this.seller.keys.requestsAnswered(ref, windowStart)
      : undefined;
    // The day's numbers held in blocks: `status` tells them from the requests sent.
    const reserved = this.seller.keys.requestsReserved(ref, dayStart);
    return { counters: { day, window, reserved, ...(answered ? { answered } : {}) }, windowStart, dayStart };
  }

  async reserve(
    ref: string,
    dailyReset: string,
    budget: number | null,
    run: { id: string; key: string } | undefined,
    gated: boolean,
  ): Promise<ReservedRequest> {
    // Since when this request waits for the requests of the window in flight in other processes.
    let waitingSince: number | null = null;
    for (;;) {
      await this.rebasing.get(ref);
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
        taken = await this.seller.quota.takeNumbers(
          ref,
          counters,
          budget,
          run?.key ?? '',
          limit === null ? undefined : this.windowLimit(ref, windowStart, waitingSince),
        );
      } catch (error) {
        probe?.();
        throw error;
      }
      if (!('day' in taken)) {
        probe?.();
        // The window this process counted in is over (another process saw its reset pass): anew.
        if (taken.refused === 'moved') {
          this.windows.noteReset(ref, taken.reset);
          continue;
        }
        // Past the limit, a request of the window is in flight in another process: it goes first.
        if (taken.refused === 'wait') {
          waitingSince ??= this.seller.now();
          await sleep(LIMIT_PROBE_POLL_MS);
          continue;
        }
        // Numbers that requests waiting for a probe give back: the budget is not used up yet.
        if (taken.refused === 'budget' && this.probes.busy(ref)) continue;
        return this.seller.refuse(ref, taken, dayStart + DAY_MS, run?.id ?? '');
      }
      if (probe) return this.reported(taken, windowStart, counters, probe);
      if (limit === null || taken.window <= limit) {
        return this.reported(taken, windowStart, counters, this.probes.sending(ref));
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
      if (late) return this.reported(taken, windowStart, counters, late);
      await this.seller.quota.giveBackOne(counters);
    }
  }

  /** What the reservation script holds a block back by (request-quota.ts): the limit, and where to look past it. */
  private windowLimit(ref: string, windowStart: number, waitingSince: number | null): WindowLimit {
    const { keys } = this.seller;
    const now = this.seller.now();
    return {
      // The script holds back by the limit Redis holds, this process's when it holds none.
      last: this.windows.openLimit(ref, windowStart) ?? -1,
      cap: this.windows.capOf(ref, windowStart),
      learnedKey: keys.learnedLimit(ref),
      windowStart,
      now,
      // A process killed with requests in flight never reports them: past a while, go anyway.
      force: waitingSince !== null && now - waitingSince > LIMIT_PROBE_WAIT_MAX_MS,
      unopened: this.windows.unopened(ref, windowStart),
      pausedKey: keys.pausedUntil(ref),
      causeKey: keys.pauseCause(ref),
      resetKey: keys.limitReset(ref),
    };
  }

  /**
   * The request, whose answer calls `done` and counts it answered in its window (unless refused,
   * or not sent: its number given back).
   */
  private reported(taken: Taken, windowStart: number, counters: Counters, done: () => void): ReservedRequest {
    let refused = false;
    let once = false;
    return {
      ...taken,
      windowStart,
      refused: () => {
        refused = true;
      },
      notSent: async () => {
        if (once || refused) return;
        // Not given back (Redis failed): it stays counted, and is reported answered, as if sent.
        await this.seller.quota.giveBackOne(counters);
        refused = true;
      },
      answered: () => {
        if (once) return;
        once = true;
        if (!refused) this.seller.quota.noteAnswered(counters);
        done();
      },
    };
  }

  /**
   * The API answered `request` (anything but a 429): its day is open; `remaining`, when its headers
   * said it, is how many requests it still allows.
   */
  noteAnswer(
    ref: string,
    request: ReservedRequest,
    remaining: number | null,
    apiLimit: number | null = null,
  ): void {
    this.windows.noteOpen(ref, request.windowStart);
    if (remaining === null) return;
    this.windows.noteRemaining(ref, request.windowStart, request.window, remaining);
    // Alone, its answer says what the API allows exactly: past the learned limit, the count is wrong.
    const rebase = request.alone
      ? rebaseOf(request.window, remaining, this.windows.learned(ref), apiLimit)
      : null;
    if (rebase === null || this.rebasing.has(ref)) return;
    const begun = this.rebase(ref, request.windowStart, rebase).finally(() => this.rebasing.delete(ref));
    this.rebasing.set(ref, begun);
  }

  /**
   * The window begins anew now, as the API counts its day: at full concurrency (its count is the
   * API's, all answered), its first request not alone here (the API just answered). A window
   * another process began is found by the next reservation ('moved'); one not begun (Redis failed)
   * leaves the count as it was: the next request alone tries again.
   */
  private async rebase(ref: string, from: number, rebase: Rebase): Promise<void> {
    const now = this.seller.now();
    const begun = await this.seller.rebase(ref, { from, now, rebase }).catch(() => false);
    if (!begun) return;
    this.windows.noteReset(ref, now);
    this.windows.noteOpen(ref, now);
    if (rebase.limit !== null) this.windows.noteLimit(ref, rebase.limit);
  }
}
