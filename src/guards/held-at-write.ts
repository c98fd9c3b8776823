import type { Redis } from 'ioredis';
import { PlanStore } from '../plan/plan-store.js';
import { luaScript, runScript } from '../redis/scripts.js';
import type { RedisKeys } from '../runs/keys.js';
import type { RunSpec } from '../runs/run-store.js';
import type { HeldUpdate } from '../sync/row-sync-context.js';
import { updateWrite } from './planned-writes.js';
import { isGuarded, rowGuardReason } from './verdict.js';

// The run's reason says how many rows the row guard holds: written by whoever counted last.
const REASON_SCRIPT = luaScript(
  'heldAtWriteReason',
  1,
  `
if (redis.call('HGET', KEYS[1], 'plan:held') or '0') == ARGV[1] then
  redis.call('HSET', KEYS[1], 'heldReason', ARGV[2])
end
return 1
`,
);

/**
 * The row guard at a guarded run's writes (its `apply` jobs), for the updates its plan did not see:
 * a row planned as a create whose product another run of the seller made after this run's list
 * read (its claim finds the product recorded, or a look-up after a claim taken over finds it) becomes
 * an update there. Its price move past `--max-price-change` is held as the plan holds any update's,
 * with the same reason, and nothing is sent; its plan becomes that update (for `approve`), and the
 * run's reason counts it. Undefined for a run without the row guard.
 */
export function heldAtWrite(
  deps: { redis: Redis; keys: RedisKeys },
  runId: string,
  spec: RunSpec,
): HeldUpdate | undefined {
  if (!isGuarded(spec) || !spec.maxPriceChange) return undefined;
  const plans = new PlanStore(deps.redis, deps.keys);
  return async (upsert, remote, fields, known) => {
    const write = updateWrite(spec, upsert, remote, fields, known);
    if (!write.heldFor) return null;
    const held = await plans.holdAtWrite(runId, write);
    await runScript(deps.redis, REASON_SCRIPT, deps.keys.run(runId), held, rowGuardReason(spec, held));
    return write.heldFor;
  };
}
