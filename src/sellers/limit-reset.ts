import type { Redis } from 'ioredis';
import { QUOTA_COUNTER_TTL_SECONDS } from '../defaults.js';
import { luaScript, runScript } from '../redis/scripts.js';

// KEYS: the seller's announced reset. ARGV: the instant (ms), TTL s. A later one is never replaced.
const NOTE_RESET = luaScript(
  'noteLimitReset',
  1,
  `
local stored = tonumber(redis.call('GET', KEYS[1]) or '')
if stored and stored >= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return 1
`,
);

/**
 * Records the reset a 429 announced (`key`: RedisKeys.limitReset), unless a later one is there:
 * the API's day begins anew at it, and every process counts the seller's limit window from there.
 */
export async function noteLimitReset(redis: Redis, key: string, until: number): Promise<void> {
  await runScript(redis, NOTE_RESET, key, until, QUOTA_COUNTER_TTL_SECONDS);
}
