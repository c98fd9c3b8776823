import type { Redis } from 'ioredis';
import { RUN_TTL_SECONDS } from '../defaults.js';
import type { RowOutcome } from '../interfaces.js';
import { luaScript } from '../redis/scripts.js';
import { keepOnlyWhatEndedRunsRead } from '../runs/ended-run.js';
import type { RedisKeys } from '../runs/keys.js';
import { StoredSources } from '../runs/parent-sources.js';
import { STILL_OFF_MARK } from '../runs/run-scripts.js';
import { decodeOutcome, RunStore } from '../runs/run-store.js';
import { fenceArgs, LUA_FENCE, type SettleFence } from '../runs/settle-fence.js';
import { settleRowArgs } from '../runs/settle-step.js';
import type { RowSource } from '../runs/source-rows.js';
import { recordWrittenKeys } from '../runs/written-keys.js';
import { APPROVAL_WROTE_AT } from '../sync/record-writers.js';

/**
 * Run record field: an approval round ended (the run `done`, or `held` again) and its end is not told
 * yet. Taken (HDEL) by the one caller that logs and tells it (queue/finalise.ts tellApprovalEnd).
 */
export const APPROVAL_END_UNTOLD = 'approvalEndUntold';

// Replaces a held row's outcome once: a row no longer held (settled by an earlier try of the same
// approve job) is left alone, so counts move once per row; nor does any row of a run that ended (its
// counts are final). The note counters move with it, as run-scripts.ts SETTLE_SCRIPT counts them (a
// held row's note, if any, gives way to the new one's): the summary's `notes` line counts the notes
// of approved rows. The last approved row ends the round: the run is `done`, or `held` again when
// rows (or deactivations) were left out of `approve --rows`, in the same step as its last row (no
// window where it is `running` with nothing left to end it), marked APPROVAL_END_UNTOLD: the rest of
// its end step (its end line, its webhook) is the caller's (queue/finalise.ts tellApprovalEnd),
// once, whoever takes the mark. When `cancel` was asked for meanwhile
// (queue/cancel-approval.ts resettles the rows it took off the queue), the approval's marks are
// cleared and the run is left `running`: it ends `cancelled` through the end step of every run
// (queue/finalise.ts endIfFinalisationOver), which tells its webhook and logs its end, once.
// ARGV[1] is the time of the call, taken after its rows were written: APPROVAL_WROTE_AT keeps the
// latest (every batch's, not the last one's alone: another caller's rows may be written later than
// this caller's clock read, and settled before it), and the round's end is the run's `finishedAt`.
// Fenced by an approve chunk's attempt (runs/settle-fence.ts: KEYS[6] its job lock, ARGV[2] its
// tokens): none once another holds the chunk.
const RESETTLE_SCRIPT = luaScript(
  'resettle',
  6,
  `${LUA_FENCE}
local state = redis.call('HGET', KEYS[2], 'state')
if state == 'done' or state == 'cancelled' or staleAttempt(KEYS[6], ARGV[2]) then return 0 end
local function countNotes(encoded, by)
  if #cjson.decode(encoded) >= 6 then redis.call('HINCRBY', KEYS[2], 'notes:rows', by) end
  if string.find(encoded, 'accepted but not applied', 1, true) then
    redis.call('HINCRBY', KEYS[2], 'notes:not-applied', by)
  end
  if string.find(encoded, '${STILL_OFF_MARK}', 1, true) then
    redis.call('HINCRBY', KEYS[2], 'notes:still-off', by)
  end
end
local replaced = 0
for i = 3, #ARGV, 6 do
  local current = redis.call('HGET', KEYS[1], ARGV[i])
  if current then
    local old = cjson.decode(current)
    if old[4] == 'held' then
      replaced = replaced + 1
      redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
      redis.call('HINCRBY', KEYS[2], 'action:' .. old[2], -1)
      redis.call('HINCRBY', KEYS[2], 'status:held', -1)
      redis.call('HINCRBY', KEYS[2], 'pair:' .. old[2] .. ':held', -1)
      redis.call('HINCRBY', KEYS[2], 'action:' .. ARGV[i + 2], 1)
      redis.call('HINCRBY', KEYS[2], 'status:' .. ARGV[i + 3], 1)
      redis.call('HINCRBY', KEYS[2], 'pair:' .. ARGV[i + 2] .. ':' .. ARGV[i + 3], 1)
      countNotes(current, -1)
      countNotes(ARGV[i + 1], 1)
      if ARGV[i + 4] ~= '' then redis.call('SADD', KEYS[3], ARGV[i + 4]) end
      if ARGV[i + 5] ~= '' then
        redis.call('HSET', KEYS[5], ARGV[i], ARGV[i + 5])
        if redis.call('TTL', KEYS[5]) == -1 then redis.call('EXPIRE', KEYS[5], ${RUN_TTL_SECONDS}) end
      end
    end
  end
end
if replaced > 0 then
  if tonumber(ARGV[1]) > (tonumber(redis.call('HGET', KEYS[2], '${APPROVAL_WROTE_AT}') or '0') or 0) then
    redis.call('HSET', KEYS[2], '${APPROVAL_WROTE_AT}', ARGV[1])
  end
  local left = redis.call('HINCRBY', KEYS[2], 'approving', -replaced)
  -- Approved deactivations still due end the run themselves (finalise.ts endAfterDeactivations).
  if left <= 0 and redis.call('HLEN', KEYS[4]) == 0 then
    local held = tonumber(redis.call('HGET', KEYS[2], 'status:held') or '0')
      + tonumber(redis.call('HGET', KEYS[2], 'pair:deactivate:held') or '0')
    if redis.call('HEXISTS', KEYS[2], 'cancelledAt') == 1 then
      redis.call('HDEL', KEYS[2], 'approvalRows', 'approvalCount')
    else
      -- The round ends when its rows were last written: the run's finishedAt from now on (the
      -- hold's own instant stays in heldAt), as approve's summary and status tell it.
      local wrote = redis.call('HGET', KEYS[2], '${APPROVAL_WROTE_AT}')
      redis.call('HSET', KEYS[2], 'state', held > 0 and 'held' or 'done', '${APPROVAL_END_UNTOLD}', 1, 'finishedAt', wrote)
    end
  end
end
return replaced
`,
);

/** The rows a guard held back, and their settling when `approve` sends them. */
export class HeldRows {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** Those of `rows` whose outcome is `held` now. */
  async heldAmong(runId: string, rows: number[]): Promise<Set<number>> {
    if (rows.length === 0) return new Set();
    const values = await this.redis.hmget(this.keys.outcomes(runId), ...rows.map(String));
    return new Set(rows.filter((row, i) => isHeld(row, values[i])));
  }

  /** Every held row of the run, in source order, read in batches. */
  async *all(runId: string, total: number, batchSize = 1000): AsyncGenerator<number> {
    for (let first = 1; first <= total; first += batchSize) {
      const rows = Array.from({ length: Math.min(batchSize, total - first + 1) }, (_, i) => first + i);
      const held = await this.heldAmong(runId, rows);
      for (const row of rows) if (held.has(row)) yield row;
    }
  }

  /**
   * Gives held rows their final outcome (once each); the last one of an approve round ends it, and
   * its caller tells that end then (queue/finalise.ts tellApprovalEnd); but for a cancelled round:
   * its caller ends the run then (queue/finalise.ts endIfFinalisationOver).
   */
  async resettle(
    runId: string,
    outcomes: RowOutcome[],
    /** Source values by row: a row that fails keeps them for `report --failed-only`. */
    sources: ReadonlyMap<number, RowSource> = new Map(),
    /** An approve chunk's attempt: its rows resettle only while no other attempt holds the chunk. */
    fence?: SettleFence,
  ): Promise<number> {
    if (outcomes.length === 0) return 0;
    const [lockKey, tokens] = fenceArgs(fence, this.keys.run(runId));
    // After the rows' writes: the run wrote until now (APPROVAL_WROTE_AT).
    const args: string[] = [String(Date.now()), tokens];
    const stored = new StoredSources(this.keys.parentSources(runId));
    for (const outcome of outcomes) {
      if (outcome.row === null) throw new Error('resettle() takes source rows');
      args.push(...settleRowArgs(outcome.row, outcome, stored, sources.get(outcome.row)));
    }
    // An approved write makes this run the one that wrote the product last (later-source-runs.ts).
    await recordWrittenKeys(this.redis, this.keys, runId, outcomes);
    const replaced = (await stored.sendWith(
      this.redis,
      RESETTLE_SCRIPT,
      this.keys.outcomes(runId),
      this.keys.run(runId),
      this.keys.touched(runId),
      this.keys.deactivations(runId),
      this.keys.failedSources(runId),
      lockKey,
      ...args,
    )) as number;
    // The round's last row ended the run (`done`) without RunStore.finish: it keeps what a run that
    // ended keeps, as finish would. A cancelled round's run is ended by the caller (see the script).
    const run = replaced > 0 ? await new RunStore(this.redis, this.keys).get(runId) : null;
    if (run?.state === 'done') await keepOnlyWhatEndedRunsRead(this.redis, this.keys, run);
    return replaced;
  }
}

function isHeld(row: number, value: string | null | undefined): boolean {
  return value !== null && value !== undefined && decodeOutcome(row, value).status === 'held';
}
