import { setTimeout as sleep } from 'node:timers/promises';
import { WAKE_LEAD_MS } from '../defaults.js';
import type { SellerPausedError } from '../sync/seller-pause.js';

/**
 * A chunk taken just before a daily limit's reset (WAKE_LEAD_MS: the queue wakes that early)
 * waits it out, ready: its first request leaves at the reset, none before. True once waited.
 */
export async function waitOutReset(
  pause: SellerPausedError | undefined,
  now: () => number,
): Promise<boolean> {
  if (pause?.reason !== 'daily-limit' || pause.until === null) return false;
  const left = pause.until - now();
  if (left > WAKE_LEAD_MS) return false;
  if (left > 0) await sleep(left);
  return true;
}

/** Whether Redis, as one read found it, still holds the marks another process may lift. */
export interface SharedMarks {
  rejected: boolean;
  unreachable: boolean;
  /** The daily pause (paused-until) is still set. */
  paused: boolean;
}

export interface HeldPause {
  pause: SellerPausedError;
  /** Redis held it too (written or read by this process), rather than only about to be written. */
  shared: boolean;
}

/**
 * The pauses this process knows of, by seller: its requests fail fast on them with no Redis command
 * (issue 5: once one answer says stop, those waiting for the limiter are not sent).
 *
 * A rejected key's mark (401) and an API out of reach's are lifted by a person, in another process
 * as often as not: `resume`, the next `run`, `cancel`. A copy of such a mark that Redis held is then
 * no longer true, and it goes as soon as a chunk reads the shared marks again (once per chunk, a read
 * it makes anyway): a worker goes on with the seller's rows without marking it again, and without a
 * restart. A pause not yet written (the answer just came; its chunk writes it next) holds until then.
 * A budget's pause goes too when its run is cancelled (the budget was that run's). A daily limit's
 * pause is lifted by nothing but its reset: its copy ends with it (`until`).
 */
export class LocalPauses {
  private readonly held = new Map<string, HeldPause>();

  constructor(private readonly now: () => number) {}

  get(ref: string): SellerPausedError | undefined {
    return this.held.get(ref)?.pause;
  }

  /** Throws the pause this process holds for the seller, unless its time is over; costs nothing. */
  assert(ref: string): void {
    const held = this.held.get(ref);
    if (!held) return;
    const { until } = held.pause;
    if (until !== null && until <= this.now()) {
      this.held.delete(ref);
      return;
    }
    throw held.pause;
  }

  /** Holds `pause`; `shared`: Redis holds it too. */
  set(ref: string, pause: SellerPausedError, shared: boolean): SellerPausedError {
    this.held.set(ref, { pause, shared });
    return pause;
  }

  /** Forgets the seller's pause (of `reason` only, when given). */
  delete(ref: string, reason?: SellerPausedError['reason']): void {
    if (reason === undefined || this.held.get(ref)?.pause.reason === reason) this.held.delete(ref);
  }

  /**
   * The seller's pause when it is a copy of a mark another process may lift: only a read of Redis
   * says whether it still holds. Pass it to `dropLifted` with that read.
   */
  liftable(ref: string): HeldPause | undefined {
    const held = this.held.get(ref);
    if (!held?.shared) return undefined;
    return held.pause.reason === 'daily-limit' ? undefined : held;
  }

  /** Forgets the copy `liftable` gave when Redis, as read since, no longer holds its mark. */
  dropLifted(ref: string, copy: HeldPause, marks: SharedMarks): void {
    // Replaced meanwhile (a new answer of this process): that one holds.
    if (this.held.get(ref) !== copy) return;
    const { reason } = copy.pause;
    const lifted =
      reason === 'unauthorized'
        ? !marks.rejected
        : reason === 'unreachable'
          ? !marks.unreachable
          : !marks.paused;
    if (lifted) this.held.delete(ref);
  }
}
