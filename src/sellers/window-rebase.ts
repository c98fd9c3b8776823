import type { Redis } from 'ioredis';
import { QUOTA_COUNTER_TTL_SECONDS } from '../defaults.js';
import { luaScript, runScript } from '../redis/scripts.js';
import type { RedisKeys } from '../runs/keys.js';

/**
 * The API's own figure over the tool's count (issue 31). The tool counts a seller's requests from
 * the reset a 429 announced, 24 h on, against the limit a 429 taught. The API shows its day's end
 * only with a 429: when its day turns with none seen (its days are not 24 h from that reset), when
 * its limit rises, or when a killed process never sent the numbers it held, the count runs past the
 * limit while the API still has room, and past the limit the tool sends one request at a time.
 *
 * A request sent alone (past the limit, every other request of the window answered or waited
 * out) has no request of the tool's in flight beside it: its number plus the remaining count its
 * answer says is exactly the last number the API allows in the window. When that is past the
 * learned limit, the count is wrong, not the API: the window begins anew now, counted from what the
 * API says it has used of its day (its limit less what is left), for every process (the new window
 * is a passed reset to them, as a 429's is), so that the tool goes on at full concurrency and the
 * next 429 teaches the limit of one API day, not of two.
 */

/** How the window begins anew: its count (what the API has used of its day), and its limit. */
export interface Rebase {
  /** The API's requests of its day so far, this one included: the new window's count. */
  used: number;
  /** The limit to hold back by from now, or null: the learned one stands. */
  limit: number | null;
}

/**
 * Whether the answer to request `number` of a window, sent alone, shows the count wrong, and how
 * the window begins anew; null when it agrees with the learned limit. `apiLimit`: the limit the
 * API's headers said (X-RateLimit-Limit), else null. Without it, a day turned is taken for what
 * happened (the limit stands, the API used it less what is left), unless more is left than the
 * limit allows: then the limit rose, to at least this request and what is left.
 */
export function rebaseOf(
  number: number,
  remaining: number,
  learned: number | null,
  apiLimit: number | null,
): Rebase | null {
  if (learned === null || number + remaining <= learned) return null;
  if (apiLimit !== null && apiLimit > remaining)
    return { used: apiLimit - remaining, limit: apiLimit === learned ? null : apiLimit };
  if (remaining < learned) return { used: learned - remaining, limit: null };
  return { used: 1, limit: remaining + 1 };
}

// KEYS: the seller's announced reset, the one before it, its pause, the new window's request
// count, its answered count, the accepted counts (hash: window start → accepted), the learned
// limit. ARGV: the window the alone request was counted in (its start), the new window's start
// (now, ms), its count, the limit (-1: the learned one stands), TTL s.
// Only once per window: none when another process began a later one, or a 429 ended it (a later
// reset announced, or a pause). The new window is a reset that has passed (limit-reset.ts): each
// process counting in the old one is told so by its next reservation (request-quota-scripts.ts).
// Its requests are the API's, all answered (none of the tool's was in flight) and accepted.
const REBASE_SCRIPT = luaScript(
  'rebaseLimitWindow',
  7,
  `
local start = tonumber(ARGV[1])
local now = tonumber(ARGV[2])
local stored = tonumber(redis.call('GET', KEYS[1]) or '')
if stored and stored > start then return 0 end
local paused = tonumber(redis.call('GET', KEYS[3]) or '')
if paused and paused > now then return 0 end
if stored then redis.call('SET', KEYS[2], stored) end
redis.call('SET', KEYS[1], now)
redis.call('SET', KEYS[4], ARGV[3], 'EX', ARGV[5])
redis.call('SET', KEYS[5], ARGV[3], 'EX', ARGV[5])
for _, field in ipairs(redis.call('HKEYS', KEYS[6])) do
  if tonumber(field) < now then redis.call('HDEL', KEYS[6], field) end
end
redis.call('HSET', KEYS[6], now, ARGV[3])
redis.call('EXPIRE', KEYS[6], ARGV[5])
if tonumber(ARGV[4]) > 0 then
  redis.call('SET', KEYS[7], '{"dayStart":' .. now .. ',"limit":' .. ARGV[4] .. ',"at":' .. now .. '}')
end
return 1
`,
);

/**
 * Begins the seller's window anew at `now` (rebaseOf says how), unless another process or a 429
 * did meanwhile: true when this call did.
 */
export async function rebaseWindow(
  redis: Redis,
  keys: RedisKeys,
  ref: string,
  window: { from: number; now: number; rebase: Rebase },
): Promise<boolean> {
  const { from, now, rebase } = window;
  const done = await runScript(
    redis,
    REBASE_SCRIPT,
    keys.limitReset(ref),
    keys.limitResetBefore(ref),
    keys.pausedUntil(ref),
    keys.requestsUsed(ref, now),
    keys.requestsAnswered(ref, now),
    keys.acceptedRequests(ref),
    keys.learnedLimit(ref),
    from,
    now,
    rebase.used,
    rebase.limit ?? -1,
    QUOTA_COUNTER_TTL_SECONDS,
  );
  return Number(done) === 1;
}
