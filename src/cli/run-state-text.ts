import { leftUnreadText } from '../queue/producing-mark.js';
import { unqueuedApprovalText } from '../runs/approval-phase.js';
import { revertedHeldText } from '../runs/approve-hint.js';
import type { RunRecord } from '../runs/run-store.js';
import { runCounts, supersededText } from '../runs/summary.js';
import { nextProbeText } from '../sellers/seller-reach.js';
import type { SellerStatus } from '../sellers/seller-state.js';
import { outOfReachText } from '../sync/seller-pause.js';
import { pausedMessage } from './progress.js';

/**
 * What `status` says of a run's state: why a run that is not over waits, when it does.
 * `readerStopped`: its source was left unread by a process that stopped (producing-mark.ts).
 */
export function runStateText(
  run: RunRecord,
  seller: SellerStatus,
  now: number,
  readerStopped = false,
): string {
  if (run.aborted)
    return `ended early: ${run.endedEarly ?? 'the source was not read to the end (interrupted, or the source broke)'}`;
  if (run.endingEarly !== undefined)
    return `ending early: ${run.endingEarly}; the rows under way settle, then it ends (its queued rows are not sent)`;
  if (run.state === 'held')
    return run.revertedAt !== undefined
      ? revertedHeldText(runCounts(run))
      : `held: ${run.heldReason ?? 'a guard held writes back'}`;
  if (run.state === 'cancelled' && run.supersededBy) return `cancelled: ${supersededText(run.supersededBy)}`;
  // Ended without a write: a field name no listed product shows (listed-fields.ts).
  if (run.state === 'done' && run.fieldsRefused) return `refused: ${run.fieldsRefused}`;
  if (run.state === 'done' || run.state === 'cancelled') return run.state;
  if (run.cancelledAt !== undefined)
    return 'cancelling: the chunks in progress finish, then the run ends cancelled';
  // Before a pause: the pause lifts by itself, but nothing reads the rest of this run's source.
  const stopped = readerStopped ? `${run.state}: ${leftUnreadText(run)}` : null;
  const pause = pauseText(run, seller, now);
  if (stopped) return pause ? `${stopped}; meanwhile ${pause}` : stopped;
  return pause ?? run.state;
}

/** What holds a run that is not over back, when something does; null when nothing does. */
function pauseText(run: RunRecord, seller: SellerStatus, now: number): string | null {
  if (seller.authRejected) return 'paused: API key rejected (401)';
  if (seller.unreachable) {
    const { baseUrl, cause } = seller.unreachable;
    const next = nextProbeText(seller.unreachable, now, seller.served !== false);
    const what = outOfReachText(baseUrl, cause, seller.unreachable.noApi === true);
    return `paused: ${what}; rows queued, ${next}`;
  }
  if (seller.pausedUntil) return pausedMessage(seller.pausedUntil, now);
  // Approved, its writes not queued yet: an approve under way, or one that stopped (approval-phase.ts).
  const unqueued = unqueuedApprovalText(run, now);
  return unqueued ? `running: ${unqueued}` : null;
}
