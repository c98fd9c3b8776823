import type { Redis } from 'ioredis';
import type { RedisKeys } from '../runs/keys.js';
import { parseUnreachable, type UnreachableRecord } from './seller-reach.js';

export interface SellerStatus {
  pausedUntil: number | null;
  /** The run whose --daily-budget paused the seller (pausedUntil), when a budget did. */
  pausedByBudgetOf?: string;
  authRejected: boolean;
  requestsToday: number;
  /** Set while the seller's API cannot be reached (refused, DNS, timeouts): `run` exits 6. */
  unreachable?: UnreachableRecord | null;
}

/** The seller's state as `status` shows it, in one read: its pause, key, reach and the quota day's count (from `dayStart`). */
export async function readSellerStatus(
  redis: Redis,
  keys: RedisKeys,
  ref: string,
  dayStart: number,
  now: number,
): Promise<SellerStatus> {
  const [until, rejected, used, unreachable, cause] = await redis.mget(
    keys.pausedUntil(ref),
    keys.authRejected(ref),
    keys.requestsUsed(ref, dayStart),
    keys.unreachable(ref),
    keys.pauseCause(ref),
  );
  const pausedUntil = until && Number(until) > now ? Number(until) : null;
  const budgetOf =
    pausedUntil !== null && cause?.startsWith('budget ') ? cause.slice('budget '.length) : undefined;
  return {
    pausedUntil,
    ...(budgetOf ? { pausedByBudgetOf: budgetOf } : {}),
    authRejected: rejected !== null,
    requestsToday: Number(used ?? 0),
    unreachable: parseUnreachable(unreachable),
  };
}
