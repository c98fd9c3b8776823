import type { Redis } from 'ioredis';
import { RUN_TTL_SECONDS } from '../defaults.js';
import { type Repeat, renewWhile, repeatEvery } from '../redis/renew-while.js';
import { luaScript, runScript } from '../redis/scripts.js';
import type { RedisKeys } from '../runs/keys.js';

/**
 * One PUT per deactivation, however many `deactivate` jobs hold the product. Two can: a finaliser
 * or an `approve` stopped while it queued them queues what is still due again, and the numbering
 * starts from 0, so a job id whose first job completed comes back with products another job is
 * sending at that moment; two approve rounds the same.
 *
 * A job claims its products before it sends anything, in one script per job: a product no longer
 * due is left out, one another job holds is left to that job, the rest are the job's. The holder is
 * the job's id, so the same job handed out again (a killed worker, a pause, a Redis error: BullMQ
 * keeps the id) takes its products back at once; a holder that stopped renewing, its job gone, is
 * taken over after `claimMs`. A product settles once (ADD_MISSING), whoever settles it.
 */
export type DeactivationClaim = 'ours' | 'settled' | 'held';

// KEYS: the run's due deactivations, its claims. ARGV: holder, now, the claim's new expiry, the run's
// lifetime in seconds (the claims last no longer than the run, ended or not), then the remote ids.
// Per id: 1 ours (claimed, or renewed), 0 no longer due, 2 held by another live holder.
const CLAIM_SCRIPT = luaScript(
  'claimDeactivations',
  2,
  `
local mine = ARGV[1] .. '|'
local out = {}
for i = 5, #ARGV do
  local id = ARGV[i]
  if redis.call('HEXISTS', KEYS[1], id) == 0 then
    out[#out + 1] = 0
  else
    local held = redis.call('HGET', KEYS[2], id)
    local expires = held and tonumber(string.match(held, '|(%d+)$')) or 0
    if held and string.sub(held, 1, #mine) ~= mine and expires > tonumber(ARGV[2]) then
      out[#out + 1] = 2
    else
      redis.call('HSET', KEYS[2], id, mine .. ARGV[3])
      out[#out + 1] = 1
    end
  end
end
redis.call('EXPIRE', KEYS[2], ARGV[4])
return out
`,
);

const CLAIMS: Record<number, DeactivationClaim> = { 0: 'settled', 1: 'ours', 2: 'held' };

export class DeactivationClaims {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    readonly claimMs: number,
    private readonly now: () => number = Date.now,
    private readonly repeat: Repeat = repeatEvery,
  ) {}

  /** Claims (or renews) `ids` of run `runId` for `holder`; what each is, in the same order. */
  async claim(runId: string, holder: string, ids: readonly string[]): Promise<DeactivationClaim[]> {
    if (ids.length === 0) return [];
    const now = this.now();
    const answer = (await runScript(
      this.redis,
      CLAIM_SCRIPT,
      this.keys.deactivations(runId),
      this.keys.deactivationClaims(runId),
      holder,
      now,
      now + this.claimMs,
      RUN_TTL_SECONDS,
      ...ids,
    )) as number[];
    return answer.map((code) => CLAIMS[code] ?? 'held');
  }

  /**
   * Claims `ids`, then renews the claims every third of `claimMs` until `work` ends, so that a slow
   * PUT (retried, waiting on the limiter) is never taken over while its job lives. `work` gets what
   * each product is.
   */
  async whileHeld<T>(
    runId: string,
    holder: string,
    ids: readonly string[],
    work: (claims: DeactivationClaim[]) => Promise<T>,
  ): Promise<T> {
    const claims = await this.claim(runId, holder, ids);
    const ours = ids.filter((_, i) => claims[i] === 'ours');
    return renewWhile(
      () => this.claim(runId, holder, ours),
      this.claimMs / 3,
      () => work(claims),
      this.repeat,
    );
  }
}

/** When a deactivation claim's value (`…|expiresAt`, as CLAIM's script writes it) runs out. */
export function deactivationClaimExpiresAt(value: string): number {
  return Number(value.slice(value.lastIndexOf('|') + 1));
}
