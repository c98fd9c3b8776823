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
 * `unsold`: a key the later run read in a row it left out as not sold counts too (a held row: that
 * run decided the product is not to be live). A held deactivation does not ask it: for the later
 * run too, that product was gone from the source.
 */
export async function laterSourceRuns(
  deps: LaterDeps,
  run: Pick<RunRecord, 'id' | 'createdAt' | 'sellerRef'>,
  matchKeys: string[],
  { unsold }: { unsold: boolean },
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
    const [inSource, leftOut] = await Promise.all([
      deps.redis.smismember(deps.keys.sourceKeys(laterId), ...matchKeys),
      unsold ? deps.redis.smismember(deps.keys.unsoldKeys(laterId), ...matchKeys) : [],
    ]);
    matchKeys.forEach((key, i) => {
      if ((inSource[i] === 1 || leftOut[i] === 1) && !back.has(key)) back.set(key, laterId);
    });
  }
  return back;
}
