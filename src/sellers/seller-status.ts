import type { Redis } from 'ioredis';
import type { RedisKeys } from '../runs/keys.js';
import { passedReset, sellerDayStart, storedInstant } from './quota-day.js';
import { parseUnreachable, type UnreachableRecord } from './seller-reach.js';

export interface SellerStatus {
  pausedUntil: number | null;
  /** The run whose --daily-budget paused the seller (pausedUntil), when a budget did. */
  pausedByBudgetOf?: string;
  authRejected: boolean;
  /** Requests of the quota day sent, as counted so far: numbers still held in blocks left out. */
  requestsToday: number;
  /**
   * Numbers of the day that processes hold in blocks now (request-quota.ts): some sent, some not;
   * the day's requests are at most requestsToday plus these.
   */
  requestsReserved?: number;
  /** Set while the seller's API cannot be reached (refused, DNS, timeouts): `run` exits 6. */
  unreachable?: UnreachableRecord | null;
  /**
   * A live process can serve the seller (a worker or a `run` holding its key renewed its mark:
   * served-marks.ts), so one probes an API out of reach when due. Unset: not read.
   */
  served?: boolean;
}

/**
 * The seller's state as `status` shows it: its pause, key, reach, and the counts of its day, the
 * one its requests are counted in (quota-day.ts sellerDayStart: from the API's reset once a 429
 * announced one, else from `dailyReset`). Two reads: the day is known once its reset is.
 */
export async function readSellerStatus(
  redis: Redis,
  keys: RedisKeys,
  ref: string,
  dailyReset: string,
  now: number,
): Promise<SellerStatus> {
  const [until, rejected, unreachable, cause, reset, resetBefore, served] = await redis.mget(
    keys.pausedUntil(ref),
    keys.authRejected(ref),
    keys.unreachable(ref),
    keys.pauseCause(ref),
    keys.limitReset(ref),
    keys.limitResetBefore(ref),
    // In the same command (the seller's slot): whether anyone is left to probe an API out of reach.
    keys.servedBy(ref),
  );
  const lastReset = passedReset(now, storedInstant(reset), storedInstant(resetBefore));
  const dayStart = sellerDayStart(now, dailyReset, lastReset);
  const [used, held] = await redis.mget(
    keys.requestsUsed(ref, dayStart),
    keys.requestsReserved(ref, dayStart),
  );
  // The day's counter counts the numbers reserved in blocks before they are sent.
  const counted = Number(used ?? 0);
  const reserved = Math.min(counted, Math.max(0, Number(held ?? 0)));
  const pausedUntil = until && Number(until) > now ? Number(until) : null;
  const budgetOf =
    pausedUntil !== null && cause?.startsWith('budget ') ? cause.slice('budget '.length) : undefined;
  return {
    pausedUntil,
    ...(budgetOf ? { pausedByBudgetOf: budgetOf } : {}),
    authRejected: rejected !== null,
    requestsToday: counted - reserved,
    requestsReserved: reserved,
    unreachable: parseUnreachable(unreachable),
    served: served !== null,
  };
}
