import { RUN_TTL_SECONDS } from '../defaults.js';
import { APPROVAL_END_UNTOLD } from '../guards/held-rows.js';
import { luaScript, runScript } from '../redis/scripts.js';
import type { ChunkJobData } from '../runs/chunk-job.js';
import type { RunRecord } from '../runs/run-store.js';
import { APPROVAL_WROTE_AT } from '../sync/record-writers.js';
import { cancelApprovedRows } from './cancel-approval.js';
import type { FinaliseDeps } from './finalise.js';

// An approval round ends when its last approved row is written (guards/held-rows.ts RESETTLE: the
// run's `approving` count reaches 0). An `approve` job Redis lost (a failover, a partial flush) left
// its rows `held` and counted for good: the run stayed `running`, and the `approve` waiting on it
// waited for ever. The look at an idle run (lost-chunks.ts) gives them back: they stay `held`
// (nothing of theirs was sent, the job went before a worker took it), the round's count drops by
// them, and a round left with nothing to write ends `held` again, so that `approve` sends them.

/** Rows a page of the look reads: as many as a cancel's. */
const PAGE = 1000;

// KEYS: the run's outcomes, its record, its due deactivations, the rows given back (`round:row`).
// ARGV: now, then the rows. Only while the round runs; a row still held and not given back before
// is taken off the count; the round's last one ends it `held`, in the same step as RESETTLE's last
// row would (its end told by the caller: finalise.ts tellApprovalEnd), unless deactivations are due
// (they end the run) or a cancel came (the caller ends it cancelled). Resolves to the rows given back.
const GIVE_BACK = luaScript(
  'giveBackLostApprovals',
  4,
  `
if redis.call('HGET', KEYS[2], 'state') ~= 'running' then return 0 end
local round = redis.call('HGET', KEYS[2], 'approvals') or '0'
local given = 0
for i = 2, #ARGV do
  local current = redis.call('HGET', KEYS[1], ARGV[i])
  if current and cjson.decode(current)[4] == 'held' and redis.call('SADD', KEYS[4], round .. ':' .. ARGV[i]) == 1 then
    given = given + 1
  end
end
if given == 0 then return 0 end
redis.call('EXPIRE', KEYS[4], ${RUN_TTL_SECONDS})
local left = redis.call('HINCRBY', KEYS[2], 'approving', -given)
if left <= 0 and redis.call('HLEN', KEYS[3]) == 0 and redis.call('HEXISTS', KEYS[2], 'cancelledAt') == 0 then
  local wrote = redis.call('HGET', KEYS[2], '${APPROVAL_WROTE_AT}') or ARGV[1]
  redis.call('HSET', KEYS[2], 'state', 'held', '${APPROVAL_END_UNTOLD}', 1, 'finishedAt', wrote)
end
return given
`,
);

/**
 * Gives the run's approved rows no `approve` job holds back to the held ones (a cancelled run's are
 * settled skipped, as its cancel does): only once the round's writes are all queued. Resolves to
 * how many.
 */
export async function giveBackLostApprovals(
  deps: FinaliseDeps,
  run: RunRecord,
  jobs: readonly ChunkJobData[],
  now = Date.now(),
): Promise<number> {
  if (!run.approvedQueued || run.approvalUnqueued) return 0;
  if (run.cancelledAt !== undefined) {
    await cancelApprovedRows(
      deps,
      run,
      jobs.map((data) => ({ data })),
    );
    return 0;
  }
  const busy = new Set(jobs.flatMap((job) => job.rows.map((row) => row.row)));
  const named = run.approvedRows ? new Set(run.approvedRows) : null;
  let given = 0;
  for (let first = 1; first <= run.total; first += PAGE) {
    const rows = Array.from({ length: Math.min(PAGE, run.total - first + 1) }, (_, i) => first + i).filter(
      (row) => !busy.has(row) && (named === null || named.has(row)),
    );
    if (rows.length === 0) continue;
    given += Number(
      await runScript(
        deps.redis,
        GIVE_BACK,
        deps.keys.outcomes(run.id),
        deps.keys.run(run.id),
        deps.keys.deactivations(run.id),
        deps.keys.approvalsGivenBack(run.id),
        now,
        ...rows,
      ),
    );
  }
  return given;
}
