import type { Redis } from 'ioredis';
import { ACTIVE_LOOKED_AT } from '../defaults.js';
import { luaScript, runScript } from '../redis/scripts.js';

/**
 * What a seller's queue holds for a worker, read without attaching one to it (issue 13: a worker
 * attaches to a few seller queues at a time, each attached queue costing a blocking connection).
 */
export interface QueueReadiness {
  /** Jobs waiting to be taken (wait list and prioritized set). */
  waiting: number;
  /** When the earliest delayed job is due (ms), or null when none is delayed. */
  nextDelayedAt: number | null;
  /** Active jobs whose lock is gone: a killed worker's, to be moved back by a stalled check. */
  stalled: number;
  /** Paused by a rejected key (401) until `resume`. */
  paused: boolean;
  /** The end (ms) of a manual rate limit (a daily-limit pause), or null when none holds. */
  limitedUntil: number | null;
}

/**
 * One read of a BullMQ queue's keys (KEYS: wait, prioritized, delayed, active, meta, limiter; ARGV:
 * the job key prefix, the most active jobs to look at, the worker's limiter max). A delayed job's
 * score is its due time × 0x1000 (BullMQ's getDelayedScore); a job's lock is `<prefix><id>:lock`.
 * The limiter key counts the jobs a worker started in its window, with that window's TTL: the queue
 * is limited only once the count reaches the max, as a manual rate limit (a daily-limit pause) sets
 * it (BullMQ's getRateLimitTTL).
 */
const READ_QUEUE = luaScript(
  'queueReadiness',
  6,
  `
local waiting = redis.call('LLEN', KEYS[1]) + redis.call('ZCARD', KEYS[2])
local nextDelayed = -1
local first = redis.call('ZRANGE', KEYS[3], 0, 0, 'WITHSCORES')
if first[2] then nextDelayed = math.floor(tonumber(first[2]) / 4096) end
local stalled = 0
local active = redis.call('LRANGE', KEYS[4], 0, tonumber(ARGV[2]) - 1)
for _, id in ipairs(active) do
  if redis.call('EXISTS', ARGV[1] .. id .. ':lock') == 0 then stalled = stalled + 1 end
end
local paused = redis.call('HEXISTS', KEYS[5], 'paused')
local limited = -1
if tonumber(redis.call('GET', KEYS[6]) or 0) >= tonumber(ARGV[3]) then limited = redis.call('PTTL', KEYS[6]) end
return {waiting, tostring(nextDelayed), stalled, paused, limited}
`,
);

/**
 * The `limiter.max` of every seller queue's worker (seller-workers.ts): never reached by jobs, only by
 * the manual rate limit of a paused seller.
 */
export const LIMITER_MAX = 1_000_000_000;

/** Reads one queue's readiness (one round trip; the keys share the queue's hash slot). */
export async function readQueueReadiness(
  redis: Redis,
  prefix: string,
  queueName: string,
  now: number,
): Promise<QueueReadiness> {
  const base = `${prefix}:${queueName}:`;
  const reply = (await runScript(
    redis,
    READ_QUEUE,
    `${base}wait`,
    `${base}prioritized`,
    `${base}delayed`,
    `${base}active`,
    `${base}meta`,
    `${base}limiter`,
    base,
    ACTIVE_LOOKED_AT,
    LIMITER_MAX,
  )) as [number, string, number, number, number];
  const [waiting, nextDelayed, stalled, paused, limitedMs] = reply;
  const delayedAt = Number(nextDelayed);
  return {
    waiting: Number(waiting),
    nextDelayedAt: delayedAt >= 0 ? delayedAt : null,
    stalled: Number(stalled),
    paused: Number(paused) === 1,
    limitedUntil: Number(limitedMs) > 0 ? now + Number(limitedMs) : null,
  };
}

/**
 * True when a worker attached now would find work: a waiting job it may take (not paused, not rate
 * limited), a delayed job due, or a killed worker's job to move back.
 */
export function hasWorkNow(readiness: QueueReadiness, now: number): boolean {
  if (readiness.stalled > 0) return true;
  if (readiness.paused) return false;
  if (readiness.limitedUntil !== null && readiness.limitedUntil > now) return false;
  if (readiness.waiting > 0) return true;
  return readiness.nextDelayedAt !== null && readiness.nextDelayedAt <= now;
}
