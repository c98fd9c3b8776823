import type { Redis } from 'ioredis';
import { APPROVAL_STOPPED_AFTER_MS } from '../defaults.js';
import type { RedisKeys } from '../runs/keys.js';
import { APPROVAL_ALIVE_AT } from './approval-beat.js';

/**
 * Run record field: when an approve took over the round an earlier one began and stopped (before
 * its writes were queued, or after, leaving them unsent): the approval's time is told from then
 * (runs/summary.ts), `approvedAt` keeping the round's first start. Absent: one approve did it all.
 */
export const APPROVAL_RESUMED_AT = 'approvalResumedAt';

interface TakeOverDeps {
  redis: Redis;
  keys: RedisKeys;
}

// Set only while the round is under way: one that ended meanwhile keeps the instants it ended with.
const RESUMED_SCRIPT = `
if redis.call('HGET', KEYS[1], 'state') ~= 'running' then return 0 end
redis.call('HSET', KEYS[1], '${APPROVAL_RESUMED_AT}', ARGV[1])
return 1
`;

// RESUMED_SCRIPT for a round whose writes are not all queued, checked in the same step: still that
// round (ARGV[2]), still unqueued, and its approve last heard from (its start, its takeover or its
// heartbeat: runs/approval-phase.ts approveLastHeardAt) at least ARGV[3] ms before ARGV[1]. A beat
// or another takeover that came after the record was read wins: two live approves never queue the
// round side by side.
const TAKE_OVER_SCRIPT = `
if redis.call('HGET', KEYS[1], 'state') ~= 'running' then return 0 end
local round = redis.call('HGET', KEYS[1], 'approvals')
if round ~= ARGV[2] or redis.call('HGET', KEYS[1], 'approvalQueued') == round then return 0 end
local heard = 0
for _, field in ipairs({'approvedAt', '${APPROVAL_RESUMED_AT}', '${APPROVAL_ALIVE_AT}'}) do
  heard = math.max(heard, tonumber(redis.call('HGET', KEYS[1], field) or '0') or 0)
end
if tonumber(ARGV[1]) - heard < tonumber(ARGV[3]) then return 0 end
redis.call('HSET', KEYS[1], '${APPROVAL_RESUMED_AT}', ARGV[1])
return 1
`;

/**
 * Notes that an approve takes over the round under way (an earlier approve queued its writes and
 * stopped): the approval's time is this approve's from now on. Nothing once the round has ended.
 */
export async function noteApprovalResumed(
  deps: TakeOverDeps,
  runId: string,
  now = Date.now(),
): Promise<void> {
  await deps.redis.eval(RESUMED_SCRIPT, 1, deps.keys.run(runId), now);
}

/**
 * Takes over `round`, whose writes an earlier approve began to queue, once that approve has been
 * silent APPROVAL_STOPPED_AFTER_MS (noted as noteApprovalResumed notes it). False when it is alive
 * after all, or the round was queued or ended meanwhile.
 */
export async function takeOverStoppedApproval(
  deps: TakeOverDeps,
  runId: string,
  round: number,
  now = Date.now(),
): Promise<boolean> {
  const args = [now, round, APPROVAL_STOPPED_AFTER_MS];
  return (await deps.redis.eval(TAKE_OVER_SCRIPT, 1, deps.keys.run(runId), ...args)) === 1;
}
