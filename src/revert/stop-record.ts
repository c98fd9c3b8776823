import { pauseOf } from '../sync/error-policy.js';
import { SendingStoppedError } from '../sync/sending-stopped.js';

// A revert that stopped half way is recorded with the run (its counts, which hold numbers only), so
// that `status` says what is left and why: interrupted, the daily limit until its reset, the key
// rejected (401), or the API out of reach. Each case says what to do before reverting again.

/** The counts that say why a revert stopped (with `left`, the products not put back), or null: not a stop. */
export function stopCounts(error: unknown): Record<string, number> | null {
  if (error instanceof SendingStoppedError) return { interrupted: 1 };
  const pause = pauseOf(error);
  if (pause === null) return null;
  if (pause.reason === 'unauthorized') return { stoppedUnauthorized: 1 };
  if (pause.reason === 'unreachable') return { stoppedUnreachable: 1 };
  return { stoppedUntil: pause.until ?? 0 };
}

/** `(interrupted: revert it again to finish)` and the like, or null when the revert went to its end. */
export function stopNote(counts: Record<string, number>): string | null {
  if ((counts.interrupted ?? 0) > 0) return 'interrupted: revert it again to finish';
  if ((counts.stoppedUnauthorized ?? 0) > 0)
    return 'stopped: the key was rejected (401): put the working key in place, then revert it again';
  if ((counts.stoppedUnreachable ?? 0) > 0)
    return 'stopped: the Seller API was out of reach: revert it again once it answers';
  const until = counts.stoppedUntil;
  if (until !== undefined) {
    const at = new Date(until).toISOString().slice(11, 16);
    return `stopped: the daily limit is spent until ${at} UTC: revert it again then`;
  }
  return null;
}
