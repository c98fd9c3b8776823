import type { Redis } from 'ioredis';
import type { DeactivateItem } from '../runs/chunk-job.js';
import type { RedisKeys } from '../runs/keys.js';
import { laterSourceRuns } from '../runs/later-source-runs.js';
import { lineOfMember } from '../runs/missing-order.js';
import { decodeOutcome, type RunRecord, type RunStore } from '../runs/run-store.js';
import { deactivateLine } from './deactivations.js';

interface HeldDeps {
  redis: Redis;
  keys: RedisKeys;
  runs: RunStore;
}

/** The `deactivate` lines a guard held back (`--max-missing`, or held with the run). */
export function heldDeactivations(run: Pick<RunRecord, 'counts'>): number {
  return run.counts['pair:deactivate:held'] ?? 0;
}

// A held line becomes due again, once: its line leaves the report (and its counts), its product goes
// back into keys.deactivations, where the `deactivate` jobs take it from as on the normal path.
const MAKE_DUE_SCRIPT = `
local moved = 0
for i = 1, #ARGV, 3 do
  if redis.call('ZREM', KEYS[1], ARGV[i]) == 1 then
    moved = moved + 1
    redis.call('HINCRBY', KEYS[2], 'action:deactivate', -1)
    redis.call('HINCRBY', KEYS[2], 'pair:deactivate:held', -1)
    redis.call('HSET', KEYS[3], ARGV[i + 1], ARGV[i + 2])
  end
end
return moved
`;

/**
 * `approve` of a whole run: its held deactivations become due again (keys.deactivations), to be sent
 * by `enqueueDeactivations` and re-checked by each job against the products as they are then. A
 * product a later run of the seller read in its source and wrote came back meanwhile: it is settled
 * without a write. Resolves to how many are due.
 */
export async function makeHeldDue(deps: HeldDeps, run: RunRecord, batchSize = 1000): Promise<number> {
  const { redis, keys } = deps;
  const held: { member: string; item: DeactivateItem }[] = [];
  for (let start = 0; ; start += batchSize) {
    const members = await redis.zrange(keys.missing(run.id), start, start + batchSize - 1);
    for (const member of members) {
      const line = decodeOutcome(null, lineOfMember(member));
      if (line.action === 'deactivate' && line.status === 'held' && line.productId)
        held.push({ member, item: { id: line.productId, key: line.key } });
    }
    if (members.length < batchSize) break;
  }
  if (held.length === 0) return 0;
  // Back only when a later run wrote the product (its write gave it back): one that read it and
  // wrote nothing of it (cancelled, refused, the row invalid) leaves the deactivation due.
  const { written: backSince } = await laterSourceRuns(
    deps,
    run,
    held.map((h) => h.item.key),
    { unsold: false },
  );
  const args = held.flatMap(({ member, item }) => [member, item.id, item.key]);
  const moved = (await redis.eval(
    MAKE_DUE_SCRIPT,
    3,
    keys.missing(run.id),
    keys.run(run.id),
    keys.deactivations(run.id),
    ...args,
  )) as number;
  const back = held.filter(({ item }) => backSince.has(item.key)).map(({ item }) => item);
  if (back.length > 0) {
    await deps.runs.addMissing(
      run.id,
      back.map((item) =>
        deactivateLine(
          item,
          'ok',
          '',
          `back in the source since run ${backSince.get(item.key)}: not written`,
        ),
      ),
      true,
    );
  }
  return moved - back.length;
}
