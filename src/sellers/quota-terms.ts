// What a seller's request quota (request-quota.ts) is asked with and answers: its counters, the
// limit a reservation is held back by, a request's numbers, and why none was handed out.

/**
 * Why no number was handed out: the run's record is gone, the budget is used up, a 429 paused the
 * seller (another process's), or the limit window is over (a later reset has passed).
 */
export type Refusal =
  | { refused: 'lost' }
  | { refused: 'budget'; used: number }
  | { refused: 'paused'; until: number; cause: string }
  | { refused: 'moved'; reset: number }
  | { refused: 'wait' };

/** The seller's limit in the window (limit-gate.ts), told with a reservation that is held back by it. */
export interface WindowLimit {
  /** The last window number it allows. */
  last: number;
  windowStart: number;
  now: number;
  /** The seller's pause, its cause and its announced reset (keys), read with each block. */
  pausedKey: string;
  causeKey: string;
  resetKey: string;
  /** Past the limit, a number even while a request of the window is in flight somewhere. */
  force: boolean;
  /** No request of the window answered here yet: one at a time until one is, anywhere. */
  unopened: boolean;
  /** The last number the API's headers allow in the window, or null (the script reads the learned limit). */
  cap: number | null;
  learnedKey: string;
}

/**
 * The numbers of one request: in the seller's day (what the budget counts), and in the limit window
 * (what the learned limit counts). Both are the seller's day now (quota-day.ts sellerDayStart), one
 * counter, so the two are equal; the scripts still take a window's counter apart.
 */
export interface Taken {
  day: number;
  window: number;
  /**
   * Sent alone: past the limit, every other request of the window answered (or waited out), so
   * its number plus what its answer says is left is what the API allows (window-rebase.ts).
   */
  alone?: boolean;
}

/**
 * Requests the API accepted in a limit window, counted in the seller's accepted counts (`key`:
 * RedisKeys.acceptedRequests) with a give-back there is anyway (accepted-answers.ts).
 */
export interface AcceptedCount {
  key: string;
  windowStart: number;
  count: number;
}

/** Where a seller's requests are counted: the seller's day's counter, and the limit window's (the day's, limit-gate.ts). */
export interface Counters {
  day: string;
  window: string;
  /** The window's answered requests (RedisKeys.requestsAnswered); none: nothing is reported. */
  answered?: string;
  /** The day's numbers held in blocks (RedisKeys.requestsReserved); none: not counted. */
  reserved?: string;
}
