import type { RowOutcome } from '../interfaces.js';
import { luaScript } from '../redis/scripts.js';

// The Lua scripts of RunStore: each settles or adds lines and counts them in one step, once.

// Settles each row once: HSETNX makes a retried chunk (after a 429, a crash) unable to count a row twice.
// The product a row touched is recorded in the same round trip (a remote product no row touched is `missing`),
// and so are the source values of a row that failed (`report --failed-only`).
export const SETTLE_SCRIPT = `
local settledNow = 0
local fresh = {}
for i = 1, #ARGV, 6 do
  if redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[i + 1]) == 1 then
    settledNow = settledNow + 1
    fresh[#fresh + 1] = (i - 1) / 6
    redis.call('HINCRBY', KEYS[2], 'action:' .. ARGV[i + 2], 1)
    redis.call('HINCRBY', KEYS[2], 'status:' .. ARGV[i + 3], 1)
    redis.call('HINCRBY', KEYS[2], 'pair:' .. ARGV[i + 2] .. ':' .. ARGV[i + 3], 1)
    if #cjson.decode(ARGV[i + 1]) >= 6 then redis.call('HINCRBY', KEYS[2], 'notes:rows', 1) end
    if string.find(ARGV[i + 1], 'accepted but not applied', 1, true) then
      redis.call('HINCRBY', KEYS[2], 'notes:not-applied', 1)
    end
    if ARGV[i + 5] ~= '' then redis.call('HSET', KEYS[4], ARGV[i], ARGV[i + 5]) end
  end
  if ARGV[i + 4] ~= '' then redis.call('SADD', KEYS[3], ARGV[i + 4]) end
end
local settled = redis.call('HINCRBY', KEYS[2], 'settled', settledNow)
return {settledNow, settled, fresh}
`;

// Adds `missing` (or `deactivate`) lines and counts only those not there yet, in one step. A line
// of a product still to deactivate (KEYS[3]) is added only while it is: a retried job adds it once.
// Counts: `action:<action>` and, for `deactivate`, `pair:deactivate:<status>` (not `status:`, which
// counts source rows). Returns the lines added and the deactivations left.
export const ADD_MISSING_SCRIPT = `
local added = 0
for i = 1, #ARGV, 5 do
  local due = ARGV[i + 3] == '' or redis.call('HDEL', KEYS[3], ARGV[i + 3]) == 1
  if due and redis.call('ZADD', KEYS[1], 0, ARGV[i]) == 1 then
    added = added + 1
    redis.call('HINCRBY', KEYS[2], 'action:' .. ARGV[i + 1], 1)
    if ARGV[i + 1] ~= 'missing' then redis.call('HINCRBY', KEYS[2], 'pair:' .. ARGV[i + 1] .. ':' .. ARGV[i + 2], 1) end
    if ARGV[i + 4] ~= '' then redis.call('HINCRBY', KEYS[2], ARGV[i + 4], 1) end
  end
end
return {added, redis.call('HLEN', KEYS[3])}
`;

/**
 * A `deactivate` line settled ok without a write (its note says `already so`, or `back in the source`
 * under `approve`: README, The report): counted apart, so that `deactivated` counts the products written.
 */
export function unwrittenCounter(outcome: RowOutcome): string {
  if (outcome.action !== 'deactivate' || outcome.status !== 'ok' || !outcome.note) return '';
  if (outcome.note === 'already so') return 'notes:already-so';
  if (outcome.note.startsWith('back in the source')) return 'notes:back-in-source';
  return '';
}

// The scripts as RunStore sends them: by SHA1 (redis/scripts.ts), not with their text each time.
export const SETTLE = luaScript('settleRows', 4, SETTLE_SCRIPT);
export const ADD_MISSING = luaScript('addMissing', 3, ADD_MISSING_SCRIPT);
export const MARK_RUNNING = luaScript(
  'markRunning',
  1,
  "if redis.call('HGET', KEYS[1], 'state') == 'queued' then redis.call('HSET', KEYS[1], 'state', 'running') return 1 end return 0",
);
export const REQUEST_CANCEL = luaScript(
  'requestCancel',
  1,
  `local state = redis.call('HGET', KEYS[1], 'state')
   if not state or state == 'done' or state == 'cancelled' then return 0 end
   redis.call('HSETNX', KEYS[1], 'cancelledAt', ARGV[1])
   return 1`,
);
