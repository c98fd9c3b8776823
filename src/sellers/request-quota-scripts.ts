import { luaScript } from '../redis/scripts.js';

// The Lua scripts of request-quota.ts (what they do and why: there).

// KEYS: the day's counter, the run's record (the day's counter again when none: one slot on a
// cluster), the limit window's counter (the day's again when the window is the day), the seller's
// pause, its cause, its announced reset, the window's answered count, the learned limit, the day's
// numbers held in blocks (the day's counter again when not counted). ARGV:
// block size, budget (-1: none), TTL s, 0 to hold back by a limit (-1: none known), the window's
// start, now (ms), this process's answered requests of the window not yet reported, 1 to hand out
// a number past the limit while others are in flight (they were waited for long enough), 1 when
// the window began at an announced reset and none of its requests was answered here, this
// process's limit (-1: none), the last number the API's headers allow in the window (-1: unsaid),
// the numbers of this process's used-up block the new one replaces (no longer held).
// Returns {first number - 1, numbers reserved, first number in the window - 1, why none, …}: why
// none is 0 (see the numbers, then 1 when its one number goes alone: past the limit, every other
// request of the window answered or waited out, so its answer's rate headers say exactly what the
// API allows in the window's numbers: window-rebase.ts), 1 (the run's record is gone), 2 (the seller is paused: until, and
// the pause's cause), 3 (the window is over: a later reset passed, at), 4 (past the limit, with a
// request of the window in flight somewhere: look again).
// With a limit, a block never reaches past it, so the numbers within it go out once across the
// processes, in blocks, whatever order they are sent in; past it, one number at a time, and only
// once every request of the window is answered (else a request past the limit could reach the API
// before one within it, pass, and leave the 429 to the one within); none once another process met
// the 429 (the pause), or to a process still counting in an ended window.
export const RESERVE_BLOCK = luaScript(
  'reserveRequests',
  9,
  `
if KEYS[2] ~= KEYS[1] and redis.call('HEXISTS', KEYS[2], 'spec') == 0 then return {-1, 0, 0, 1, 0} end
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local size = tonumber(ARGV[1])
local budget = tonumber(ARGV[2])
if budget >= 0 then size = math.min(size, budget - used) end
if size <= 0 then return {used, 0, 0, 0, 0} end
local windowUsed = used
if KEYS[3] ~= KEYS[1] then windowUsed = tonumber(redis.call('GET', KEYS[3]) or '0') end
local limit = tonumber(ARGV[4])
local alone = 0
if limit >= 0 then
  local answered = redis.call('INCRBY', KEYS[7], ARGV[7])
  redis.call('EXPIRE', KEYS[7], ARGV[3])
  local now = tonumber(ARGV[6])
  local seen = redis.call('MGET', KEYS[4], KEYS[5], KEYS[6])
  local paused = tonumber(seen[1] or '')
  if paused and paused > now then return {used, 0, 0, 2, paused, seen[2] or ''} end
  local reset = tonumber(seen[3] or '')
  if reset and reset > tonumber(ARGV[5]) and reset <= now then return {used, 0, 0, 3, reset} end
  -- The limit is the one learned last, as Redis holds it (a process's copy may be older), within
  -- what the API's headers said is left (-1: nothing); without one, the process's own.
  limit = tonumber(ARGV[10])
  local record = redis.call('GET', KEYS[8])
  local ok, learned = pcall(cjson.decode, record or '')
  if ok and type(learned) == 'table' and tonumber(learned.limit) then
    limit = tonumber(learned.limit)
    local cap = tonumber(ARGV[11])
    if cap >= 0 and cap < limit then limit = cap end
  end
  -- A window's first request goes alone, across the processes; once one is answered, the limit.
  if ARGV[9] == '1' and answered == 0 then limit = 0 end
  if limit >= 0 then
    if windowUsed >= limit and answered < windowUsed and ARGV[8] ~= '1' then return {used, 0, 0, 4, 0} end
    if windowUsed >= limit then alone = 1 end
    size = math.max(1, math.min(size, limit - windowUsed))
  end
end
redis.call('INCRBY', KEYS[1], size)
redis.call('EXPIRE', KEYS[1], ARGV[3])
if KEYS[3] ~= KEYS[1] then
  redis.call('INCRBY', KEYS[3], size)
  redis.call('EXPIRE', KEYS[3], ARGV[3])
end
if KEYS[9] ~= KEYS[1] then
  local before = redis.call('INCRBY', KEYS[9], size - tonumber(ARGV[12])) - size
  -- None held before (a TTL once per chunk, not per block); below none, the count was lost: anew.
  if before < 0 then redis.call('SET', KEYS[9], size, 'EX', ARGV[3])
  elseif before == 0 then redis.call('EXPIRE', KEYS[9], ARGV[3]) end
end
return {used, size, windowUsed, 0, alone}
`,
);

// KEYS: the day's counter, the window's (the day's again when the same), the window's answered
// count, the seller's accepted counts (hash: window start → requests the API accepted), the day's
// numbers held in blocks (the day's counter again when not counted). ARGV: unused numbers,
// answered requests not yet reported, TTL s, the window's start, its accepted requests not yet
// counted (learned-limit.ts reads them at the first 429), the numbers of the block no longer held.
// A counter gone meanwhile (FLUSHALL) stays gone.
export const GIVE_BACK = luaScript(
  'giveBackRequests',
  5,
  `
if tonumber(ARGV[1]) > 0 then
  for i = 1, 2 do
    if (i == 1 or KEYS[i] ~= KEYS[1]) and redis.call('EXISTS', KEYS[i]) == 1 then redis.call('DECRBY', KEYS[i], ARGV[1]) end
  end
end
if tonumber(ARGV[2]) > 0 then
  redis.call('INCRBY', KEYS[3], ARGV[2])
  redis.call('EXPIRE', KEYS[3], ARGV[3])
end
local released = tonumber(ARGV[6])
if released > 0 and KEYS[5] ~= KEYS[1] and redis.call('DECRBY', KEYS[5], released) < 0 then
  redis.call('DEL', KEYS[5])
end
local accepted = tonumber(ARGV[5])
if accepted > 0 and redis.call('HINCRBY', KEYS[4], ARGV[4], accepted) == accepted then
  -- The window's first count (once a day without a limit): earlier windows teach nothing any more.
  redis.call('EXPIRE', KEYS[4], ARGV[3])
  for _, field in ipairs(redis.call('HKEYS', KEYS[4])) do
    if tonumber(field) < tonumber(ARGV[4]) then redis.call('HDEL', KEYS[4], field) end
  end
end
return 0
`,
);
