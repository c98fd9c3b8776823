import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { FINALISE_LEASE_MS, FINALISE_WAIT_MS } from '../defaults.js';
import { luaScript, runScript } from '../redis/scripts.js';

/**
 * Who ends a run (queue/finalise.ts): one caller at a time, under a lease it renews while it works.
 * A caller killed half way (SIGKILL, a crash, a host gone) used to keep the claim for good: the run
 * stayed `running`, and every later `run` of its source waited for it. Its lease now runs out, and
 * the chunk BullMQ hands out again after the killed worker's lock takes the finalisation over.
 *
 * The run record's `finalising` field: `lease:<ends>:<token>` while a caller works, `done` once its
 * part is done (the run ended, or its deactivations queued), `1` from a version without leases
 * (taken as done: what it did cannot be known).
 */

// KEYS: the run. ARGV: token, now, lease ms. {1}: claimed; {0}: done already; {2, ends}: leased.
const CLAIM = luaScript(
  'claimFinalisation',
  1,
  `
local held = redis.call('HGET', KEYS[1], 'finalising')
if held then
  local ends = string.match(held, '^lease:(%d+):')
  if not ends then return {0, 0} end
  if tonumber(ends) > tonumber(ARGV[2]) then return {2, tonumber(ends)} end
end
redis.call('HSET', KEYS[1], 'finalising', 'lease:' .. (tonumber(ARGV[2]) + tonumber(ARGV[3])) .. ':' .. ARGV[1])
return {1, 0}
`,
);

// KEYS: the run. ARGV: token, the new value. Only the holder of the lease changes it.
const UPDATE = luaScript(
  'updateFinalisation',
  1,
  `
local held = redis.call('HGET', KEYS[1], 'finalising')
if not held or string.sub(held, -(#ARGV[1] + 1)) ~= ':' .. ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'finalising', ARGV[2])
return 1
`,
);

export interface LeaseOptions {
  leaseMs?: number;
  waitMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** A claim held: renew it while working, say `done` once the run's end is in hand. */
export class FinaliseClaim {
  constructor(
    private readonly redis: Redis,
    private readonly runKey: string,
    private readonly token: string,
    readonly leaseMs: number,
    private readonly now: () => number,
  ) {}

  /** False when the lease was lost meanwhile (it ran out and another caller took it). */
  async renew(): Promise<boolean> {
    const value = `lease:${this.now() + this.leaseMs}:${this.token}`;
    return (await runScript(this.redis, UPDATE, this.runKey, this.token, value)) === 1;
  }

  async done(): Promise<void> {
    await runScript(this.redis, UPDATE, this.runKey, this.token, 'done');
  }
}

/**
 * Claims the finalisation of the run at `runKey`; null when it is done, or another caller holds
 * it still after `waitMs`. A lease held by another is waited out: it is done soon when its holder
 * lives (two chunks that end together), and runs out when it does not.
 */
export async function claimFinalisationLease(
  redis: Redis,
  runKey: string,
  options: LeaseOptions = {},
): Promise<FinaliseClaim | null> {
  const leaseMs = options.leaseMs ?? FINALISE_LEASE_MS;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise((resolve) => setTimeout(resolve, ms)));
  const token = randomUUID();
  const giveUpAt = now() + (options.waitMs ?? FINALISE_WAIT_MS);
  for (let attempt = 0; ; attempt++) {
    const [status, ends] = (await runScript(redis, CLAIM, runKey, token, now(), leaseMs)) as [number, number];
    if (status === 1) return new FinaliseClaim(redis, runKey, token, leaseMs, now);
    if (status === 0 || now() >= giveUpAt) return null;
    // Short waits first: a live holder (the other of two chunks that ended together) is done in
    // tens of milliseconds, and `run` exits only once this chunk has.
    await sleep(Math.max(1, Math.min(10 * 2 ** attempt, 500, ends - now() + 1)));
  }
}

/**
 * Whether a run's finalisation is over (its `finalising` field): the run ended then, or its end was
 * left to its deactivations (queued), or to an `approve` of the run it held.
 */
export function finalisationOver(finalising: string | null | undefined): boolean {
  return finalising !== null && finalising !== undefined && !finalising.startsWith('lease:');
}
