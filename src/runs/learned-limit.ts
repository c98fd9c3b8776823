import type { Redis } from 'ioredis';
import { QUOTA_COUNTER_TTL_SECONDS } from '../defaults.js';
import { luaScript, runScript } from '../redis/scripts.js';
import type { RedisKeys } from './keys.js';

/**
 * A seller's daily limit as its API showed it: the requests the API accepted (answered other than
 * with a 429) in the limit window of a 429, counted across every process that serves the seller
 * (issue 14; the window: sellers/limit-window.ts). Used when no `--daily-budget` is given.
 */
export interface LearnedLimit {
  /** The limit window (its start, ms) whose 429 taught it. */
  dayStart: number;
  /** Requests the API accepted in that window. */
  limit: number;
  /** When it was last raised (ms). */
  at: number;
}

/**
 * Which record to keep when the window of `fresh` has counted more accepted requests: a later
 * window's replaces it, an earlier window's (a late answer) does not; in one window the higher
 * holds. A process reports its accepted requests when it meets the 429, the others when they learn
 * of it, so a window's count only grows, up to the API's limit, and never past it: no request of
 * the window was accepted once the API's day had used it up.
 */
export function keepLearned(stored: LearnedLimit | null, fresh: LearnedLimit): LearnedLimit {
  if (!stored || fresh.dayStart > stored.dayStart) return fresh;
  if (fresh.dayStart === stored.dayStart && fresh.limit > stored.limit) return fresh;
  return stored;
}

// KEYS: the learned limit, the accepted counts (hash: window start → accepted requests). ARGV: the
// window's start, this process's accepted requests of it not yet counted, now (ms), 1 when a 429
// of the window came (it may teach a limit; else only a window already taught is raised), TTL s.
// keepLearned's rule, for every process of every machine in one step. Returns the limit kept, -1: none.
const LEARN_SCRIPT = luaScript(
  'learnLimit',
  2,
  `
local count = redis.call('HINCRBY', KEYS[2], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[2], ARGV[5])
local start = tonumber(ARGV[1])
local stored = redis.call('GET', KEYS[1])
local storedStart, storedLimit
if stored then
  local ok, record = pcall(cjson.decode, stored)
  if ok and type(record) == 'table' then
    storedStart = tonumber(record.dayStart)
    storedLimit = tonumber(record.limit)
  end
end
if storedStart and storedLimit and (storedStart > start or (storedStart == start and storedLimit >= count)) then
  return storedLimit
end
if count <= 0 or (storedStart ~= start and ARGV[4] ~= '1') then return storedLimit or -1 end
redis.call('SET', KEYS[1], '{"dayStart":' .. ARGV[1] .. ',"limit":' .. count .. ',"at":' .. ARGV[3] .. '}')
-- The counts of earlier windows teach nothing any more.
for _, field in ipairs(redis.call('HKEYS', KEYS[2])) do
  if tonumber(field) < start then redis.call('HDEL', KEYS[2], field) end
end
return count
`,
);

/**
 * Counts `accepted` more requests the API accepted in the window that began at `windowStart`, and
 * learns the limit from the window's count by keepLearned's rule: `refused`, a 429 of the window
 * came (else only a window a 429 taught already is raised). Resolves to the limit kept, or null.
 * No expiry on the limit: it lasts.
 */
export async function learnLimit(
  redis: Redis,
  keys: RedisKeys,
  sellerRef: string,
  window: { windowStart: number; accepted: number; refused: boolean; at: number },
): Promise<number | null> {
  const kept = await runScript(
    redis,
    LEARN_SCRIPT,
    keys.learnedLimit(sellerRef),
    keys.acceptedRequests(sellerRef),
    window.windowStart,
    window.accepted,
    window.at,
    window.refused ? 1 : 0,
    QUOTA_COUNTER_TTL_SECONDS,
  );
  return Number(kept) > 0 ? Number(kept) : null;
}

/** The seller's learned limit, or null (none yet, or a record Redis should not hold). */
export async function readLearnedLimit(
  redis: Redis,
  keys: RedisKeys,
  sellerRef: string,
): Promise<LearnedLimit | null> {
  return parseLearned(await redis.get(keys.learnedLimit(sellerRef)));
}

export function parseLearned(text: string | null): LearnedLimit | null {
  if (!text) return null;
  try {
    const record = JSON.parse(text) as Partial<LearnedLimit>;
    const { dayStart, limit, at } = record;
    if (![dayStart, limit, at].every((n) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0))
      return null;
    return record as LearnedLimit;
  } catch {
    return null;
  }
}
