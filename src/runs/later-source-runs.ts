import type { Redis } from 'ioredis';
import type { RedisKeys } from './keys.js';
import type { RunRecord, RunStore } from './run-store.js';

interface LaterDeps {
  redis: Redis;
  keys: RedisKeys;
  runs: RunStore;
}

/**
 * Of these match keys, those a later run of the same seller (not a dry run) read in its source, with
 * that run's id: what the held run would write for them was decided again after it was held. An
 * `approve` writes none of them: a held deactivation (held-deactivations.ts), nor a held row
 * (guards/superseded.ts). The source keys of a run stay while an earlier run may still be approved
 * (ended-run.ts).
 */
export async function laterSourceRuns(
  deps: LaterDeps,
  run: Pick<RunRecord, 'id' | 'createdAt' | 'sellerRef'>,
  matchKeys: string[],
): Promise<Map<string, string>> {
  const back = new Map<string, string>();
  if (matchKeys.length === 0) return back;
  // The seller's runs only: every seller's would be a read of a fleet's thousands of runs per chunk.
  const later = await deps.redis.zrangebyscore(
    deps.keys.sellerRuns(run.sellerRef),
    `(${run.createdAt}`,
    '+inf',
  );
  for (const laterId of later) {
    const other = await deps.runs.get(laterId);
    if (!other || other.id === run.id || other.sellerRef !== run.sellerRef || other.dryRun) continue;
    const inSource = await deps.redis.smismember(deps.keys.sourceKeys(laterId), ...matchKeys);
    matchKeys.forEach((key, i) => {
      if (inSource[i] === 1 && !back.has(key)) back.set(key, laterId);
    });
  }
  return back;
}
