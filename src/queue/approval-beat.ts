import type { Redis } from 'ioredis';
import { APPROVAL_BEAT_MS } from '../defaults.js';
import { type Repeat, renewWhile, repeatEvery } from '../redis/renew-while.js';
import type { RedisKeys } from '../runs/keys.js';

/**
 * Run record field: when the approve queueing the round's writes last said it was alive. Another
 * approve, `status` and the dashboard take it for stopped only once this (or the approve's start,
 * when later) is older than APPROVAL_STOPPED_AFTER_MS (runs/approval-phase.ts), not once its start
 * is: a live approve is never taken for stopped, however long its queueing takes.
 */
export const APPROVAL_ALIVE_AT = 'approvalAliveAt';

// Renewed only while the round is this approve's and its writes are not all queued: a late beat
// (after the round's queued mark, or once the run ended or another round began) writes nothing.
const BEAT_SCRIPT = `
if redis.call('HGET', KEYS[1], 'state') ~= 'running' then return 0 end
if redis.call('HGET', KEYS[1], 'approvals') ~= ARGV[2] then return 0 end
if redis.call('HGET', KEYS[1], 'approvalQueued') == ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], '${APPROVAL_ALIVE_AT}', ARGV[1])
return 1
`;

/** The heartbeat's clock and renewals: tests move them by hand, the CLI leaves them out. */
export interface ApprovalBeatSeams {
  clock?: () => number;
  repeat?: Repeat;
}

export interface ApprovalBeatDeps {
  /** BullMQ's connection, the one the writes are queued on: the beat goes on it when `commands` is absent. */
  redis: Redis;
  /**
   * The tool's own connection (runtime.ts): the beat goes on it, so that it is not answered only
   * after the queueing commands sent before it on BullMQ's.
   */
  commands?: Redis;
  keys: RedisKeys;
  approvalBeat?: ApprovalBeatSeams;
}

/**
 * Runs `queueing` (an approval round's writes being queued) while its heartbeat is renewed every
 * APPROVAL_BEAT_MS; a renewal that fails is tried again at the next beat.
 */
export function beatWhileQueueing<T>(
  deps: ApprovalBeatDeps,
  runId: string,
  round: number,
  queueing: () => Promise<T>,
): Promise<T> {
  const redis = deps.commands ?? deps.redis;
  const clock = deps.approvalBeat?.clock ?? Date.now;
  const beat = () => redis.eval(BEAT_SCRIPT, 1, deps.keys.run(runId), clock(), round);
  return renewWhile(beat, APPROVAL_BEAT_MS, queueing, deps.approvalBeat?.repeat ?? repeatEvery);
}
