import { sellerDayStart } from './quota-day.js';

/**
 * The seller's limit window, as this process knows it (issue 31): the API's day, as far as the tool
 * can tell. The spec shows neither the limit nor its reset time; a 429 announces when it resets
 * (Retry-After, …), and from that instant the API counts afresh: the requests counted against the
 * learned limit start there, and the window is the seller's day (quota-day.ts sellerDayStart: 24 h
 * from that reset, else from `--daily-reset`), the one `status` and the plan read. Pure but for its
 * memory: the caller says what Redis holds.
 */
export class LimitWindows {
  /** The latest reset a 429 announced, passed or not. */
  private readonly announced = new Map<string, number>();
  /** The latest announced reset that has passed: where the current window began. */
  private readonly passed = new Map<string, number>();
  /** The window (its start) the API answered a request of, other than with a 429. */
  private readonly opened = new Map<string, number>();
  private readonly limits = new Map<string, number>();
  /** The last request number the API's rate headers allow in a window (its number + what is left). */
  private readonly caps = new Map<string, { windowStart: number; last: number }>();

  /** A 429 (here or in another process) announced the reset `at`. */
  noteReset(ref: string, at: number): void {
    if (at > (this.announced.get(ref) ?? Number.NEGATIVE_INFINITY)) this.announced.set(ref, at);
  }

  /**
   * A reset that had passed when a later one was announced (limit-reset.ts): the day the pause
   * until the later one ends began there, though this process did not see it pass.
   */
  notePassed(ref: string, at: number): void {
    if (at > (this.passed.get(ref) ?? Number.NEGATIVE_INFINITY)) this.passed.set(ref, at);
  }

  /** The latest reset a 429 announced (ms), or null: a window that began before it was ended by that 429. */
  lastAnnounced(ref: string): number | null {
    return this.announced.get(ref) ?? null;
  }

  /** True once the seller met a 429 or has a learned limit: its windows' accepted requests matter. */
  knowsLimit(ref: string): boolean {
    return this.limits.has(ref) || this.announced.has(ref);
  }

  /** The learned limit (requests a window allows), or null while none is known. */
  noteLimit(ref: string, limit: number | null): void {
    if (limit !== null && limit > 0) this.limits.set(ref, limit);
    else this.limits.delete(ref);
  }

  /** The learned limit this process holds, or null. */
  learned(ref: string): number | null {
    return this.limits.get(ref) ?? null;
  }

  /**
   * An answer to the window's request `number` said `remaining` requests are left: the API allows
   * the numbers up to their sum. The latest answer holds: it saw the others' requests counted.
   */
  noteRemaining(ref: string, windowStart: number, number: number, remaining: number): void {
    const cap = this.caps.get(ref);
    if (cap && cap.windowStart > windowStart) return;
    this.caps.set(ref, { windowStart, last: number + remaining });
  }

  /** The API answered a request of the window that began at `windowStart`, other than with a 429. */
  noteOpen(ref: string, windowStart: number): void {
    if (windowStart > (this.opened.get(ref) ?? Number.NEGATIVE_INFINITY)) this.opened.set(ref, windowStart);
  }

  /**
   * The last request number the window allows: none until the API answered one when the window
   * began at an announced reset (the first request after a reset goes alone: should the reset not
   * have come yet, a clock apart or a Retry-After rounded down, one 429 says so, not one per request
   * in flight); then as the API's headers say, within the learned limit, else the learned limit.
   */
  limitOf(ref: string, windowStart: number): number | null {
    return this.unopened(ref, windowStart) ? 0 : this.openLimit(ref, windowStart);
  }

  /** True while the window began at an announced reset and the API answered none of its requests here. */
  unopened(ref: string, windowStart: number): boolean {
    return windowStart === this.passed.get(ref) && this.opened.get(ref) !== windowStart;
  }

  /** The window's limit once it is open (limitOf without the first request alone). */
  openLimit(ref: string, windowStart: number): number | null {
    const cap = this.caps.get(ref);
    const learned = this.limits.get(ref);
    // Never above the learned limit: with several processes a request's number is not its place in
    // the API's count (numbers go out in blocks), so number + remaining may overshoot.
    if (cap && cap.windowStart === windowStart)
      return learned === undefined ? cap.last : Math.min(cap.last, learned);
    return learned ?? null;
  }

  /** The last number the API's headers allow in the window (number + remaining), or null when unsaid. */
  capOf(ref: string, windowStart: number): number | null {
    const cap = this.caps.get(ref);
    return cap && cap.windowStart === windowStart ? cap.last : null;
  }

  /** Where the window `now` falls in began (ms): the seller's day, from the last reset passed. */
  start(ref: string, now: number, dailyReset: string): number {
    const announced = this.announced.get(ref);
    if (announced !== undefined && announced <= now) this.notePassed(ref, announced);
    return sellerDayStart(now, dailyReset, this.passed.get(ref) ?? null);
  }
}
