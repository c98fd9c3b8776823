import { luaScript } from '../redis/scripts.js';

/**
 * The scripts that keep a seller's runs in order (run-order.ts): each reads the seller's queue
 * and its runs in one step, so that no chunk is begun, listed or woken on a view another worker
 * changes meanwhile.
 */

// KEYS: the seller queue's active, wait, delayed and prioritized keys (BullMQ's), the seller's runs
// by creation time, its runs being read (live until their score), its chunks put back to wait.
const QUEUE_KEYS = 7;

/** What both scripts share: a chunk job's run (runIdOfChunkJob), the runs' order, the runs present. */
const COMMON = `
-- The run of a chunk job, and whether it is an approval's (an \`approve\` chunk, or a deactivation
-- of an approval's round: isApprovalChunk).
local function runOf(id)
  local base = string.match(id, '^(.+)%-%d+$')
  if not base then return nil end
  local approved = string.match(base, '^(.+)%-approve%d+$')
  if approved then return approved, true end
  local round = string.match(base, '%-deactivate(%d+)$')
  if round then
    return string.sub(base, 1, #base - #round - #'-deactivate'), tonumber(round) ~= 0
  end
  if string.sub(base, -6) == '-apply' then return string.sub(base, 1, -7), false end
  return base, false
end
local scores = {}
local function scoreOf(run)
  local score = scores[run]
  if score == nil then
    score = tonumber(redis.call('ZSCORE', KEYS[5], run) or '') or false
    scores[run] = score
  end
  return score
end
-- An approval's chunk goes in the order when it was queued (its job's timestamp), not when its run
-- was created: it holds back a run created after it (whose list read must see the approved writes),
-- never one created before (that run never waited for it: a process that found it first in line
-- remembers it). KEYS[1] is the queue's \`active\` list: its job hashes share the prefix.
local function queuedAt(id)
  local key = string.sub(KEYS[1], 1, -7) .. id
  return tonumber(redis.call('HGET', key, 'timestamp') or '') or false
end
-- A run created before another (or in the same millisecond, with a smaller id). A run that is not
-- among the seller's runs (gone with its week) is in no order: it neither waits nor is waited for.
local function before(a, b)
  local sa, sb = scoreOf(a), scoreOf(b)
  return sa ~= false and sb ~= false and (sa < sb or (sa == sb and a < b))
end
-- Whether what eachPresent visited (a run, or an approval's chunk queued at \`at\`) goes before \`mine\`.
local function ahead(run, at, mine)
  if run == mine then return false end
  if at == nil then return before(run, mine) end
  local sm = scoreOf(mine)
  return at ~= false and sm ~= false and at < sm
end
-- Calls visit(run, job id, at) for each run being read (job id nil) and each chunk in the queue;
-- \`at\` is nil but for an approval's chunk: when it was queued (false when not known).
local function eachPresent(now, visit)
  if PRUNE then redis.call('ZREMRANGEBYSCORE', KEYS[6], '-inf', now) end
  for _, run in ipairs(redis.call('ZRANGEBYSCORE', KEYS[6], '(' .. now, '+inf')) do
    if visit(run, nil, nil) then return true end
  end
  local lists = {
    redis.call('LRANGE', KEYS[1], 0, -1), redis.call('ZRANGE', KEYS[3], 0, -1),
    redis.call('LRANGE', KEYS[2], 0, -1), redis.call('ZRANGE', KEYS[4], 0, -1),
  }
  for _, ids in ipairs(lists) do
    for _, id in ipairs(ids) do
      local run, approval = runOf(id)
      local at = nil
      if approval then at = queuedAt(id) end
      if run and visit(run, id, at) then return true end
    end
  end
  return false
end
`;

// ARGV: the run, the chunk's job id, now (ms). KEYS[8]: the chunk's job hash. The earlier run it
// waits for, or nil. Waiting, it is listed and its start uncounted (BullMQ counts every take in
// `ats`, which tells a chunk taken again after a killed worker: this one did nothing).
export const EARLIER_RUN = luaScript(
  'earlierRunOfChunk',
  QUEUE_KEYS + 1,
  `local PRUNE = true
${COMMON}
local mine, job, now = ARGV[1], ARGV[2], tonumber(ARGV[3])
if scoreOf(mine) == false then return false end
local earlier = false
eachPresent(now, function(run, id, at)
  if id ~= job and ahead(run, at, mine) then earlier = run return true end
  return false
end)
if earlier then
  redis.call('ZADD', KEYS[7], now, job)
  redis.call('HINCRBY', KEYS[8], 'ats', -1)
end
return earlier
`,
);

// ARGV: now (ms). The waiting chunks of the earliest run present, which waits for no run: taken off
// the list, to be promoted. Listed chunks neither delayed nor active (taken again, cancelled) go.
export const NEXT_RUN_CHUNKS = luaScript(
  'chunksOfNextRun',
  QUEUE_KEYS,
  `local PRUNE = true
${COMMON}
if redis.call('ZCARD', KEYS[7]) == 0 then return {} end
-- The earliest of what is present, by when it goes: an approval's chunk by when it was queued. When
-- that is an approval's chunk, no listed chunk goes yet (its end wakes them).
local earliest, earliestAt, earliestIsApproval = nil, nil, false
eachPresent(tonumber(ARGV[1]), function(run, _, at)
  local score = at
  if at == nil then score = scoreOf(run) end
  if score ~= false and (earliest == nil or score < earliestAt or (score == earliestAt and run < earliest)) then
    earliest, earliestAt, earliestIsApproval = run, score, at ~= nil
  end
  return false
end)
if earliestIsApproval then earliest = nil end
local active = {}
for _, id in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do active[id] = true end
local wake = {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[7], 0, -1)) do
  if redis.call('ZSCORE', KEYS[3], id) then
    if earliest ~= nil and runOf(id) == earliest then
      redis.call('ZREM', KEYS[7], id)
      wake[#wake + 1] = id
    end
  elseif not active[id] then
    redis.call('ZREM', KEYS[7], id)
  end
end
return wake
`,
);

// ARGV: the run. The seller queue's jobs waiting (wait, prioritized, delayed), less the chunks of
// later runs put back behind this one: they go after its own chunks, so its producer does not wait
// for them to drain (it would wait for ever: they wait for its source to be read to its end).
export const WAITING_AHEAD = luaScript(
  'chunksWaitingAhead',
  QUEUE_KEYS,
  `local PRUNE = true
${COMMON}
local mine = ARGV[1]
local count = redis.call('LLEN', KEYS[2]) + redis.call('ZCARD', KEYS[3]) + redis.call('ZCARD', KEYS[4])
if scoreOf(mine) == false then return count end
for _, id in ipairs(redis.call('ZRANGE', KEYS[7], 0, -1)) do
  local run, approval = runOf(id)
  if run and not approval and run ~= mine and before(mine, run) and redis.call('ZSCORE', KEYS[3], id) then
    count = count - 1
  end
end
return count
`,
);

// ARGV: the run, now (ms). The earlier run of the seller still present that the run's chunks wait
// for, or nil; read only (`status`): nothing is listed or pruned.
export const RUN_WAITED_FOR = luaScript(
  'runWaitedFor',
  QUEUE_KEYS,
  `local PRUNE = false
${COMMON}
local mine, now = ARGV[1], tonumber(ARGV[2])
if scoreOf(mine) == false then return false end
local earlier = false
eachPresent(now, function(run, _, at)
  if ahead(run, at, mine) then earlier = run return true end
  return false
end)
return earlier
`,
);

// ARGV: the run to revert, now (ms), the mark's lifetime (ms). `revert` writes to the seller's
// products like a run (revert-turn.ts): the first run of the seller it would race, as {run, where},
// where being 'read' (its source, or a revert under way), 'active' or 'queued' (a job of any kind,
// an approval's too); else none, and the reverted run is listed among the runs being read, which
// makes a later run's chunks wait for it (EARLIER_RUN) until the revert takes it off.
export const REVERT_TURN = luaScript(
  'revertTurn',
  QUEUE_KEYS,
  `local now = tonumber(ARGV[2])
local function runOfAny(id)
  local base = string.match(id, '^(.+)%-%d+$')
  if not base then return id end
  return string.match(base, '^(.+)%-approve%d+$') or string.match(base, '^(.+)%-deactivate%d+$')
    or string.match(base, '^(.+)%-apply$') or base
end
redis.call('ZREMRANGEBYSCORE', KEYS[6], '-inf', now)
local reading = redis.call('ZRANGEBYSCORE', KEYS[6], '(' .. now, '+inf', 'LIMIT', 0, 1)
if #reading > 0 then return {reading[1], 'read'} end
local active = redis.call('LRANGE', KEYS[1], 0, 0)
if #active > 0 then return {runOfAny(active[1]), 'active'} end
local queued = redis.call('LRANGE', KEYS[2], -1, -1)
if #queued == 0 then queued = redis.call('ZRANGE', KEYS[4], 0, 0) end
if #queued == 0 then queued = redis.call('ZRANGE', KEYS[3], 0, 0) end
if #queued > 0 then return {runOfAny(queued[1]), 'queued'} end
redis.call('ZADD', KEYS[6], now + tonumber(ARGV[3]), ARGV[1])
return false
`,
);
