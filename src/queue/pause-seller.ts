import type { Queue } from 'bullmq';
import type { WorkerDeps } from '../chunks/run-context.js';
import { bullmq } from '../cjs-packages.js';
import { UNTIMED_PAUSE_MS, WAKE_LEAD_MS } from '../defaults.js';
import { tellPauseToWaitingRuns } from '../notify/pause-notice.js';
import { ApiUnreachableError, type SellerPausedError } from '../sync/seller-pause.js';
import { pauseUnreachable } from './reach-probe.js';

/**
 * Stops every worker on every machine from taking the seller's jobs: until the reset for a daily
 * limit (a Redis key with a TTL, so it outlives restarts), until `resume` for a rejected key, or
 * until the next probe for an API out of reach.
 * Which errors pause, and until when, the error table says (error-policy.ts, `pauseOf`).
 */
export async function pauseSeller(
  deps: WorkerDeps,
  queue: Queue,
  ref: string,
  pause: SellerPausedError,
  runId: string,
  /** The fingerprint of the key the API answered 401 here: listed, so no process sends it again. */
  keyFingerprint: string | undefined,
): Promise<never> {
  if (pause.reason === 'unauthorized') {
    await deps.sellers.markAuthRejected(ref, keyFingerprint);
    deps.logger.error(
      { seller: ref },
      'the API key was rejected (401): the seller is paused until `catalog-sync resume`',
    );
    await queue.pause();
    await tellPauseToWaitingRuns(deps, ref, { event: 'key-rejected' }, runId);
  } else if (pause instanceof ApiUnreachableError) {
    await pauseUnreachable(deps, queue, ref, pause, runId);
  } else {
    const until = pause.until ?? deps.now() + UNTIMED_PAUSE_MS;
    const reason = pause.reason === 'daily-budget' ? 'daily-budget' : 'daily-limit';
    // A budget's pause stays the run's whose budget it is (not this job's, which only met it).
    await deps.sellers.pauseUntil(ref, until, reason, pause.budgetOf ?? runId);
    deps.logger.warn(
      { seller: ref, until: new Date(until).toISOString(), reason },
      'seller paused until the daily reset',
    );
    // Jobs are taken again a little before the reset: they wait out the rest in assertNotPaused.
    await queue.rateLimit(Math.max(1, until - deps.now() - WAKE_LEAD_MS));
    // Every run of the seller waits on it, not only this one.
    await tellPauseToWaitingRuns(deps, ref, { event: 'paused', resumesAt: until }, runId);
  }
  // Back to waiting without spending an attempt (BullMQ's manual rate limit).
  throw new (bullmq().RateLimitError)();
}
