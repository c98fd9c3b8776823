import type { Redis } from 'ioredis';
import { luaScript, runScript } from '../redis/scripts.js';

// KEYS: the seller's announced reset, the reset before it that had passed. ARGV: the instant (ms),
// now (ms). A later one is never replaced; the one it replaces, once passed, began the seller's
// current day (quota-day.ts passedReset): kept, for the readers of the day while the pause lasts.
const NOTE_RESET = luaScript(
  'noteLimitReset',
  2,
  `
local stored = tonumber(redis.call('GET', KEYS[1]) or '')
if stored and stored >= tonumber(ARGV[1]) then return 0 end
if stored and stored <= tonumber(ARGV[2]) then redis.call('SET', KEYS[2], stored) end
redis.call('SET', KEYS[1], ARGV[1])
return 1
`,
);

/**
 * Records the reset a 429 announced (`keys`: RedisKeys.limitReset, limitResetBefore), unless a
 * later one is there: the API's day begins anew at it, and every process counts the seller's day
 * from there (quota-day.ts sellerDayStart). Kept with no expiry, as the learned limit is: every
 * process, and `status`, must find the same day whenever it looks.
 */
export async function noteLimitReset(
  redis: Redis,
  keys: { reset: string; before: string },
  until: number,
  now: number,
): Promise<void> {
  await runScript(redis, NOTE_RESET, keys.reset, keys.before, until, now);
}
