import type { RowOutcome } from '../interfaces.js';
import { LUA_SLICES } from '../redis/lua-slices.js';
import { luaScript, VARIABLE_KEYS } from '../redis/scripts.js';
import { LUA_WRITES } from '../redis/write-list.js';
import { LUA_FENCE } from './settle-fence.js';

// The Lua scripts of RunStore: each settles or adds lines and counts them in one step, once.

/**
 * The words of a row's note when its product came back into the source while a `--missing` value
 * stays on it (missing/still-off.ts): counted as `notes:still-off`.
 */
export const STILL_OFF_MARK = 'set by --missing';

/**
 * The words that start a dry run's note on a row the real run's row guard would hold
 * (guards/dry-run-verdict.ts): counted as `notes:would-hold`, the figure of its summary's guard line.
 */
export const WOULD_HOLD_MARK = 'a run without --dry-run would hold it';

// Settles each row once: a row whose outcome is there already (a retried chunk, after a 429, a crash)
// is not counted again, nor a row twice in one call (the first one counts). In the same step: what
// the rows' writes record (row-writes.ts, the writes of write-list.ts), the requests counted since the
// last settle (request-counts.ts), the product each row touched (a remote product no row touched is
// `missing`) and the source values of a row that failed (`report --failed-only`). Commands per call,
// not per row (issue 31): one HMGET and one HSET of the outcomes, one HMGET and one HSET of the
// counters, one SADD, one HSET of the sources, and a command or two per hash the records write.
// Fenced (a chunk's attempt, settle-fence.ts): an attempt whose job lock another attempt holds now
// settles none of its rows; its records and requests still count (its writes happened).
// KEYS[1..5]: outcomes, run, touched, failed sources, the chunk's job lock (any key of the run's slot
// when not fenced); KEYS[6..]: the records' keys. ARGV: requests, writes, the length of the records'
// section, the attempt's lock tokens (comma-separated; empty: not fenced), that section, then six
// values per row.
export const SETTLE_SCRIPT = `${LUA_SLICES}${LUA_WRITES}${LUA_FENCE}
local recorded = tonumber(ARGV[3])
applyWrites(5, 5, 4 + recorded)
local rows = {}
if not staleAttempt(KEYS[5], ARGV[4]) then
  for i = 5 + recorded, #ARGV, 6 do rows[#rows + 1] = ARGV[i] end
end
local held = sliced('HMGET', KEYS[1], rows)
local settledNow, fresh, taken = 0, {}, {}
local outcomes, failed, touched, seen = {}, {}, {}, {}
local counts, counters = {}, {}
local function count(name, by)
  if not counts[name] then
    counts[name] = 0
    counters[#counters + 1] = name
  end
  counts[name] = counts[name] + by
end
for n = 1, #rows do
  local i = 5 + recorded + (n - 1) * 6
  local row = ARGV[i]
  if not held[n] and not taken[row] then
    taken[row] = true
    settledNow = settledNow + 1
    fresh[#fresh + 1] = n - 1
    outcomes[#outcomes + 1] = row
    outcomes[#outcomes + 1] = ARGV[i + 1]
    count('action:' .. ARGV[i + 2], 1)
    count('status:' .. ARGV[i + 3], 1)
    count('pair:' .. ARGV[i + 2] .. ':' .. ARGV[i + 3], 1)
    if #cjson.decode(ARGV[i + 1]) >= 6 then count('notes:rows', 1) end
    if string.find(ARGV[i + 1], 'accepted but not applied', 1, true) then count('notes:not-applied', 1) end
    if string.find(ARGV[i + 1], '${STILL_OFF_MARK}', 1, true) then count('notes:still-off', 1) end
    if string.find(ARGV[i + 1], '${WOULD_HOLD_MARK}', 1, true) then count('notes:would-hold', 1) end
    if ARGV[i + 5] ~= '' then
      failed[#failed + 1] = row
      failed[#failed + 1] = ARGV[i + 5]
    end
  end
  local touchedId = ARGV[i + 4]
  if touchedId ~= '' and not seen[touchedId] then
    seen[touchedId] = true
    touched[#touched + 1] = touchedId
  end
end
-- Requests are counted even when no row is (below): they were spent.
if tonumber(ARGV[1]) > 0 then count('requests', tonumber(ARGV[1])) end
if tonumber(ARGV[2]) > 0 then count('writes', tonumber(ARGV[2])) end
-- The counters in one read and one write (the script is atomic), read with the run's state;
-- \`settled\` is counted last, so it is read last, even when unmoved.
count('settled', settledNow)
local names = {}
for i, name in ipairs(counters) do names[i] = name end
names[#names + 1] = 'state'
names[#names + 1] = 'aborted'
local before = redis.call('HMGET', KEYS[2], unpack(names))
local state, aborted = before[#counters + 1], before[#counters + 2]
if (state == 'done' and not aborted) or state == 'cancelled' then
  -- The run ended whole: every row had settled, and its unchanged outcomes may be packed (no longer
  -- fields of their own, ended-run.ts). A copy of a chunk handed out twice that settles now counts
  -- nothing again; what its rows recorded (above) is written all the same.
  settledNow, fresh = 0, {}
  outcomes, touched, failed = {}, {}, {}
  for _, name in ipairs(counters) do
    if name ~= 'requests' and name ~= 'writes' then counts[name] = 0 end
  end
end
if #outcomes > 0 then sliced('HSET', KEYS[1], outcomes) end
if #touched > 0 then sliced('SADD', KEYS[3], touched) end
if #failed > 0 then sliced('HSET', KEYS[4], failed) end
-- The counters last: a script stopped before them added no requests (RunStore keeps them for later).
local settled = tonumber(before[#counters] or 0) + settledNow
local after = {}
for i, name in ipairs(counters) do
  if counts[name] ~= 0 then
    after[#after + 1] = name
    after[#after + 1] = string.format('%d', tonumber(before[i] or 0) + counts[name])
  end
end
if #after > 0 then redis.call('HSET', KEYS[2], unpack(after)) end
return {settledNow, settled, fresh}
`;

// Adds `missing` (or `deactivate`) lines and counts only those not there yet, in one step. A line
// of a product still to deactivate (KEYS[3]) is added only while it is: a retried job adds it once.
// Counts: `action:<action>` and, for `deactivate`, `pair:deactivate:<status>` (not `status:`, which
// counts source rows). Returns the lines added and the deactivations left.
// Commands per call, not per line (issue 31): an HMGET and one HDEL of the deactivations, a ZMSCORE
// and one ZADD of the lines, one HINCRBY per counter. A line (or a deactivation) twice in one call
// counts once, as it did when each was added in turn. Fenced by a `deactivate` chunk's attempt
// (settle-fence.ts: KEYS[4] its job lock, ARGV[1] its tokens, '' for none): none once another holds
// the chunk. ARGV[2..]: five values per line.
export const ADD_MISSING_SCRIPT = `${LUA_SLICES}${LUA_FENCE}
if staleAttempt(KEYS[4], ARGV[1]) then return {0, redis.call('HLEN', KEYS[3])} end
local ids = {}
for i = 2, #ARGV, 5 do
  if ARGV[i + 3] ~= '' then ids[#ids + 1] = ARGV[i + 3] end
end
local due, settledIds = {}, {}
if #ids > 0 then
  local held = sliced('HMGET', KEYS[3], ids)
  for n = 1, #ids do
    if held[n] and not due[ids[n]] then
      due[ids[n]] = true
      settledIds[#settledIds + 1] = ids[n]
    end
  end
  if #settledIds > 0 then sliced('HDEL', KEYS[3], settledIds) end
end
local lines = {}
for i = 2, #ARGV, 5 do
  local id = ARGV[i + 3]
  if id == '' then
    lines[#lines + 1] = i
  elseif due[id] then
    due[id] = false
    lines[#lines + 1] = i
  end
end
local members = {}
for n = 1, #lines do members[n] = ARGV[lines[n]] end
local scores = #members > 0 and sliced('ZMSCORE', KEYS[1], members) or {}
local added, fresh, taken = 0, {}, {}
local counts, counters = {}, {}
local function count(name)
  if not counts[name] then
    counts[name] = 0
    counters[#counters + 1] = name
  end
  counts[name] = counts[name] + 1
end
for n = 1, #lines do
  local i = lines[n]
  if not scores[n] and not taken[ARGV[i]] then
    taken[ARGV[i]] = true
    added = added + 1
    fresh[#fresh + 1] = 0
    fresh[#fresh + 1] = ARGV[i]
    count('action:' .. ARGV[i + 1])
    if ARGV[i + 1] ~= 'missing' then count('pair:' .. ARGV[i + 1] .. ':' .. ARGV[i + 2]) end
    if ARGV[i + 4] ~= '' then count(ARGV[i + 4]) end
  end
end
if #fresh > 0 then sliced('ZADD', KEYS[1], fresh) end
for _, name in ipairs(counters) do redis.call('HINCRBY', KEYS[2], name, counts[name]) end
return {added, redis.call('HLEN', KEYS[3])}
`;

/**
 * How the note of a `missing` line begins when the source holds its key, and another product under
 * that key is the one its row writes (missing/missing-scan.ts): not gone from the source.
 */
export const SAME_KEY_NOTE = 'the marketplace has more than one product with';

/**
 * A `deactivate` line settled ok without a write (its note says `already so`, or `back in the source`
 * under `approve`: README, The report): counted apart, so that `deactivated` counts the products written.
 * A `missing` line of a second product under a key the source holds: counted apart from those gone.
 */
export function unwrittenCounter(outcome: RowOutcome): string {
  if (outcome.action === 'missing' && outcome.note?.startsWith(SAME_KEY_NOTE)) return 'notes:same-key';
  if (outcome.action !== 'deactivate' || outcome.status !== 'ok' || !outcome.note) return '';
  if (outcome.note === 'already so') return 'notes:already-so';
  if (outcome.note.startsWith('back in the source')) return 'notes:back-in-source';
  return '';
}

// The scripts as RunStore sends them: by SHA1 (redis/scripts.ts), not with their text each time.
export const SETTLE = luaScript('settleRows', VARIABLE_KEYS, SETTLE_SCRIPT);
export const ADD_MISSING = luaScript('addMissing', 4, ADD_MISSING_SCRIPT);
export const MARK_RUNNING = luaScript(
  'markRunning',
  1,
  "if redis.call('HGET', KEYS[1], 'state') == 'queued' then redis.call('HSET', KEYS[1], 'state', 'running') return 1 end return 0",
);
// The end of a run, once (RunStore.finish): its state moves from `queued` or `running` to its end (or
// to `held`) with the end's fields, in one step. 0, nothing written: it had ended already (two
// callers ended it at once, a cancel and an approval's last row among them), is held (only `approve`
// moves it on), or its record is gone. KEYS[1]: the run; ARGV: the fields and their values.
export const FINISH = luaScript(
  'finishRun',
  1,
  `local state = redis.call('HGET', KEYS[1], 'state')
   if state ~= 'queued' and state ~= 'running' then return 0 end
   redis.call('HSET', KEYS[1], unpack(ARGV))
   return 1`,
);
export const REQUEST_CANCEL = luaScript(
  'requestCancel',
  1,
  `local state = redis.call('HGET', KEYS[1], 'state')
   if not state or state == 'done' or state == 'cancelled' then return 0 end
   if ARGV[2] and ARGV[2] ~= '' and redis.call('HEXISTS', KEYS[1], 'cancelledAt') == 0 then
     redis.call('HSET', KEYS[1], 'supersededBy', ARGV[2])
   end
   redis.call('HSETNX', KEYS[1], 'cancelledAt', ARGV[1])
   return 1`,
);
