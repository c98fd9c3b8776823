import type { ChainableCommander } from 'ioredis';
import { luaScript, queueScript } from './scripts.js';

/**
 * Lua helpers for scripts that send one command for many fields (issue 31: commands per batch, not
 * per row). Redis' Lua unpacks at most ~8,000 values onto its C stack (LUAI_MAXCSTACK): a list of
 * arguments is sent in slices of SLICE_WIDTH, so a settle of any size works. Prepended to a script.
 *
 * - `sliced(command, key, list)`: `command key …list`, in slices; the answers of HMGET-like commands
 *   are joined in order (a missing field is `false`, as Lua sees Redis' nil).
 * - `setAbsent(key, entries)`: HSETNX of many field/value pairs in one HMGET and one HSET: the first
 *   value of a field wins (a field already there, or earlier in `entries`). Returns how many it set.
 */
export const SLICE_WIDTH = 1000;

export const LUA_SLICES = `
local function sliced(command, key, list)
  local out = {}
  for first = 1, #list, ${SLICE_WIDTH} do
    local got = redis.call(command, key, unpack(list, first, math.min(first + ${SLICE_WIDTH - 1}, #list)))
    if type(got) == 'table' then
      for i = 1, #got do out[#out + 1] = got[i] end
    end
  end
  return out
end

local function setAbsent(key, entries)
  if #entries == 0 then return 0 end
  local fields = {}
  for i = 1, #entries, 2 do fields[#fields + 1] = entries[i] end
  local held = sliced('HMGET', key, fields)
  local taken, fresh = {}, {}
  for i = 1, #fields do
    local field = fields[i]
    if not held[i] and not taken[field] then
      taken[field] = true
      fresh[#fresh + 1] = field
      fresh[#fresh + 1] = entries[2 * i]
    end
  end
  if #fresh > 0 then sliced('HSET', key, fresh) end
  return #fresh / 2
end
`;

// KEYS[1]: a hash; ARGV: field/value pairs, each set only where the field is absent.
const SET_ABSENT = luaScript('setAbsent', 1, `${LUA_SLICES}\nreturn setAbsent(KEYS[1], ARGV)`);

/** The scripts this module queues: defined on a client before its MULTI is made (defineScripts). */
export const SLICE_SCRIPTS = [SET_ABSENT];

/**
 * HSETNX of many field/value pairs, queued on `multi`: one command for one pair, else one script
 * (an HMGET and one HSET). The first value of a field wins, as with an HSETNX per pair in order.
 */
export function queueSetAbsent(multi: ChainableCommander, key: string, pairs: readonly string[]): void {
  if (pairs.length === 0) return;
  if (pairs.length === 2) multi.hsetnx(key, pairs[0] as string, pairs[1] as string);
  else queueScript(multi, SET_ABSENT, key, ...pairs);
}
