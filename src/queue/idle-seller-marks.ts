import type { Redis } from 'ioredis';
import { bullmq } from '../cjs-packages.js';
import type { RedisKeys } from '../runs/keys.js';
import type { SellerState } from '../sellers/seller-state.js';
import { queueOptions } from './queue-options.js';
import { runsInQueue } from './queued-runs.js';

export interface IdleMarkDeps {
  redis: Redis;
  keys: RedisKeys;
  prefix: string;
  sellers: Pick<
    SellerState,
    'status' | 'clearAuthRejected' | 'clearUnreachable' | 'clearBudgetPause' | 'rejectedKeys'
  >;
}

/** Which of a seller's marks were lifted: none when another run of it is still queued. */
export interface LiftedMarks {
  keyRejected: boolean;
  unreachable: boolean;
  /** The pause of the cancelled run's --daily-budget (lifted whatever else is queued). */
  budget: boolean;
}

/**
 * Once a run is cancelled and no other run of its seller is queued, the seller's marks for a
 * rejected key (401) and an API out of reach are lifted with their queue's pause: they held the
 * cancelled run's rows, and a mistyped key or base URL would otherwise leave a seller shown
 * `key rejected` or `cannot reach` for good. Nothing is sent: the next run with a key or URL that
 * is still wrong meets the same answer and marks the seller again (the rejected keys' list goes too). A daily-limit pause stays (the
 * seller's quota is spent whatever was cancelled); a daily budget's pause goes with its own run.
 */
export async function liftMarksOfIdleSeller(
  deps: IdleMarkDeps,
  sellerRef: string,
  /** The run just cancelled: a pause its own --daily-budget set goes with it. */
  cancelledRunId?: string,
): Promise<LiftedMarks> {
  const lifted: LiftedMarks = { keyRejected: false, unreachable: false, budget: false };
  const queue = new (bullmq().Queue)(deps.keys.sellerQueue(sellerRef), queueOptions(deps.redis, deps.prefix));
  queue.on('error', () => undefined);
  try {
    // The budget was that run's: the seller's other runs, with a budget of their own or none, go on
    // (one whose budget is spent too pauses the seller again at its next request).
    if (cancelledRunId !== undefined && (await deps.sellers.clearBudgetPause(sellerRef, cancelledRunId))) {
      lifted.budget = true;
      await queue.removeRateLimitKey();
    }
    if ((await runsInQueue(queue)).length > 0) return lifted;
    const status = await deps.sellers.status(sellerRef, '00:00');
    if (status.authRejected) {
      lifted.keyRejected = await deps.sellers.clearAuthRejected(sellerRef);
      // The next run starts afresh: with a key still wrong, it meets the 401 again.
      await deps.sellers.rejectedKeys.forget(sellerRef);
      // The 401 paused the queue itself (until `resume`): a later run of the seller must not wait on it.
      await queue.resume();
    }
    if (status.unreachable) {
      lifted.unreachable = await deps.sellers.clearUnreachable(sellerRef);
      // The queue waited for the next probe (BullMQ's manual rate limit).
      await queue.removeRateLimitKey();
    }
    return lifted;
  } finally {
    await queue.close();
  }
}
