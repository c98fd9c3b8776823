import type { Job, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { bullmq } from '../cjs-packages.js';
import { RUN_ORDER_RECHECK_MS } from '../defaults.js';
import type { Logger } from '../logger.js';
import { luaScript, runScript } from '../redis/scripts.js';
import type { ChunkJobData } from '../runs/chunk-job.js';
import type { RedisKeys } from '../runs/keys.js';

/**
 * The runs of one seller are written one after the other, in the order they were created: a chunk
 * of a later run is not begun while an earlier run of the seller still has a chunk in its queue
 * (waiting, put back, or under way on any worker) or its source is still being read. Two exports
 * queued while no worker ran, taken at once by two workers (or by the two chunks one worker takes
 * at a time), would otherwise race product by product, and the older values could be the ones left.
 *
 * A chunk that must wait is put back among the delayed jobs (its slot takes other work, so the
 * earlier run's chunks queued behind it are taken: no deadlock), listed as waiting; the end of the
 * earlier run's last chunk, wherever it runs, moves the waiting chunks of the next run back to the
 * queue (BullMQ's promote: the workers waiting on the queue wake at once). RUN_ORDER_RECHECK_MS
 * is only the backstop for an end nobody saw (a process killed in between).
 *
 * An approval's writes (`approve`: its `approve` chunks and the deactivations it queues) neither
 * wait nor hold a later run back: they check a later run's source themselves (guards/superseded.ts).
 */

// KEYS: the seller queue's active, wait, delayed and prioritized keys (BullMQ's), the seller's runs
// by creation time, its runs being read (live until their score), its chunks put back to wait.
const QUEUE_KEYS = 7;

/** What both scripts share: a chunk job's run (runIdOfChunkJob), the runs' order, the runs present. */
const COMMON = `
local function runOf(id)
  local base = string.match(id, '^(.+)%-%d+$')
  if not base or string.match(base, '%-approve%d+$') then return nil end
  local round = string.match(base, '%-deactivate(%d+)$')
  if round then
    if tonumber(round) ~= 0 then return nil end
    return string.sub(base, 1, #base - #round - #'-deactivate')
  end
  if string.sub(base, -6) == '-apply' then return string.sub(base, 1, -7) end
  return base
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
-- A run created before another (or in the same millisecond, with a smaller id). A run that is not
-- among the seller's runs (gone with its week) is in no order: it neither waits nor is waited for.
local function before(a, b)
  local sa, sb = scoreOf(a), scoreOf(b)
  return sa ~= false and sb ~= false and (sa < sb or (sa == sb and a < b))
end
-- Calls visit(run, job id) for each run being read (job id nil) and each chunk in the queue.
local function eachPresent(now, visit)
  if PRUNE then redis.call('ZREMRANGEBYSCORE', KEYS[6], '-inf', now) end
  for _, run in ipairs(redis.call('ZRANGEBYSCORE', KEYS[6], '(' .. now, '+inf')) do
    if visit(run, nil) then return true end
  end
  local lists = {
    redis.call('LRANGE', KEYS[1], 0, -1), redis.call('ZRANGE', KEYS[3], 0, -1),
    redis.call('LRANGE', KEYS[2], 0, -1), redis.call('ZRANGE', KEYS[4], 0, -1),
  }
  for _, ids in ipairs(lists) do
    for _, id in ipairs(ids) do
      local run = runOf(id)
      if run and visit(run, id) then return true end
    end
  end
  return false
end
`;

// ARGV: the run, the chunk's job id, now (ms). KEYS[8]: the chunk's job hash. The earlier run it
// waits for, or nil. Waiting, it is listed and its start uncounted (BullMQ counts every take in
// `ats`, which tells a chunk taken again after a killed worker: this one did nothing).
const EARLIER_RUN = luaScript(
  'earlierRunOfChunk',
  QUEUE_KEYS + 1,
  `local PRUNE = true
${COMMON}
local mine, job, now = ARGV[1], ARGV[2], tonumber(ARGV[3])
if scoreOf(mine) == false then return false end
local earlier = false
eachPresent(now, function(run, id)
  if id ~= job and run ~= mine and before(run, mine) then earlier = run return true end
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
const NEXT_RUN_CHUNKS = luaScript(
  'chunksOfNextRun',
  QUEUE_KEYS,
  `local PRUNE = true
${COMMON}
if redis.call('ZCARD', KEYS[7]) == 0 then return {} end
local earliest = nil
eachPresent(tonumber(ARGV[1]), function(run)
  if scoreOf(run) ~= false and (earliest == nil or before(run, earliest)) then earliest = run end
  return false
end)
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
const WAITING_AHEAD = luaScript(
  'chunksWaitingAhead',
  QUEUE_KEYS,
  `local PRUNE = true
${COMMON}
local mine = ARGV[1]
local count = redis.call('LLEN', KEYS[2]) + redis.call('ZCARD', KEYS[3]) + redis.call('ZCARD', KEYS[4])
if scoreOf(mine) == false then return count end
for _, id in ipairs(redis.call('ZRANGE', KEYS[7], 0, -1)) do
  local run = runOf(id)
  if run and run ~= mine and before(mine, run) and redis.call('ZSCORE', KEYS[3], id) then
    count = count - 1
  end
end
return count
`,
);

export interface RunOrderDeps {
  /** The tool's own connection: the scripts run on it. */
  redis: Redis;
  keys: RedisKeys;
  now: () => number;
}

/** What BullMQ's keys of the seller's queue start with (`prefix:QUEUE:`), a job's hash among them. */
function queueKeyPrefix(keys: RedisKeys, sellerRef: string): string {
  return `${keys.prefix}:${keys.sellerQueue(sellerRef)}:`;
}

function orderKeys(keys: RedisKeys, sellerRef: string): string[] {
  const queue = queueKeyPrefix(keys, sellerRef);
  return [
    ...['active', 'wait', 'delayed', 'prioritized'].map((name) => queue + name),
    keys.sellerRuns(sellerRef),
    keys.sellerReading(sellerRef),
    keys.behindEarlierRuns(sellerRef),
  ];
}

/** An approval's chunk: it neither waits for earlier runs nor holds later ones back. */
export function isApprovalChunk(data: Pick<ChunkJobData, 'phase' | 'round'>): boolean {
  return data.phase === 'approve' || (data.phase === 'deactivate' && (data.round ?? 0) > 0);
}

/**
 * The earlier run of the seller that the chunk `jobId` of `runId` (in the seller's queue) waits
 * for, or null. When there is one, the chunk is listed as waiting for it.
 */
export async function earlierRunOf(
  deps: RunOrderDeps,
  sellerRef: string,
  runId: string,
  jobId: string,
): Promise<string | null> {
  const keys = [...orderKeys(deps.keys, sellerRef), queueKeyPrefix(deps.keys, sellerRef) + jobId];
  const earlier = await runScript(deps.redis, EARLIER_RUN, ...keys, runId, jobId, deps.now());
  return typeof earlier === 'string' ? earlier : null;
}

// ARGV: the run, now (ms). The earlier run of the seller still present that the run's chunks wait
// for, or nil; read only (`status`): nothing is listed or pruned.
const RUN_WAITED_FOR = luaScript(
  'runWaitedFor',
  QUEUE_KEYS,
  `local PRUNE = false
${COMMON}
local mine, now = ARGV[1], tonumber(ARGV[2])
if scoreOf(mine) == false then return false end
local earlier = false
eachPresent(now, function(run)
  if run ~= mine and before(run, mine) then earlier = run return true end
  return false
end)
return earlier
`,
);

/** The earlier run of the seller that `runId`'s chunks wait for (runs are written in order), or null. */
export async function runWaitedFor(
  deps: RunOrderDeps,
  sellerRef: string,
  runId: string,
): Promise<string | null> {
  const earlier = await runScript(
    deps.redis,
    RUN_WAITED_FOR,
    ...orderKeys(deps.keys, sellerRef),
    runId,
    deps.now(),
  );
  return typeof earlier === 'string' ? earlier : null;
}

/**
 * The jobs waiting in the seller's queue that go before the chunks `runId` queues now: the
 * producer's backpressure (queue-room.ts) counts these, not the later runs' chunks put back behind it.
 */
export async function waitingAhead(deps: RunOrderDeps, sellerRef: string, runId: string): Promise<number> {
  return Number(await runScript(deps.redis, WAITING_AHEAD, ...orderKeys(deps.keys, sellerRef), runId));
}

/**
 * Moves the waiting chunks of the seller's next run back to its queue, once no earlier run holds
 * them back. Called when a chunk of the seller's queue ends or is removed, and when a source is read
 * no more. `queue`: the seller's, or a maker of it, called only when there is a chunk to promote.
 */
export async function wakeNextRun(
  deps: RunOrderDeps,
  sellerRef: string,
  queue: Queue<ChunkJobData> | (() => Queue<ChunkJobData>),
): Promise<void> {
  const ids = (await runScript(
    deps.redis,
    NEXT_RUN_CHUNKS,
    ...orderKeys(deps.keys, sellerRef),
    deps.now(),
  )) as string[];
  if (ids.length === 0) return;
  const seller = typeof queue === 'function' ? queue() : queue;
  try {
    for (const id of ids) {
      // Taken meanwhile by its fallback (RUN_ORDER_RECHECK_MS): BullMQ says it is not delayed.
      await new (bullmq().Job)(seller, 'chunk', {} as ChunkJobData, {}, id).promote().catch(() => undefined);
    }
  } finally {
    if (seller !== queue) await seller.close();
  }
}

/**
 * A process's side of the order: the runs it found first in line (a run that is first stays so,
 * since no chunk of an earlier run is queued after its last one ended), and the put-back.
 */
export class RunOrder {
  /** Runs whose chunks may begin here without a look (oldest first, a bounded number). */
  private readonly inTurn = new Set<string>();
  /** Runs whose wait this process said (once each). */
  private readonly said = new Set<string>();

  constructor(private readonly deps: RunOrderDeps & { logger: Logger }) {}

  /**
   * Returns when the chunk may begin; else puts it back among the delayed jobs until the earlier run
   * ends, and throws BullMQ's DelayedError (the job is not failed, no attempt spent).
   */
  async awaitTurn(
    queue: Queue<ChunkJobData>,
    job: Job<ChunkJobData>,
    token: string | undefined,
    run: { id: string; sellerRef: string; ownQueue?: boolean },
  ): Promise<void> {
    // A run in a queue of its own (a dry run) has no other run's chunk to pass.
    if (run.ownQueue || isApprovalChunk(job.data) || this.inTurn.has(run.id)) return;
    const earlier = await earlierRunOf(this.deps, run.sellerRef, run.id, String(job.id));
    if (earlier === null) {
      remember(this.inTurn, run.id);
      return;
    }
    if (!this.said.has(run.id)) {
      remember(this.said, run.id);
      this.deps.logger.info(
        { run: run.id, seller: run.sellerRef, after: earlier },
        `run ${run.id} waits for run ${earlier} of the same seller to end`,
      );
    }
    await job.moveToDelayed(this.deps.now() + RUN_ORDER_RECHECK_MS, token);
    // The earlier run may have ended between the look and the move: then nobody else wakes it.
    await wakeNextRun(this.deps, run.sellerRef, queue);
    throw new (bullmq().DelayedError)();
  }
}

const REMEMBERED = 10_000;

function remember(set: Set<string>, runId: string): void {
  set.add(runId);
  if (set.size > REMEMBERED) set.delete(set.values().next().value as string);
}
