import type { Redis } from 'ioredis';
import type { RedisKeys } from './keys.js';
import type { RunRecord } from './run-record.js';
import { runsOfSourceKey } from './source-runs.js';

/**
 * Takes back a run that never queued a row: its import found the source queued already and stepped
 * aside (enqueue-run.ts). Created before the source was claimed (RunStore.create lists it with its
 * record), it must leave no id behind that names no run: `status --seller` reads the seller's newest
 * id, and another import of the source watches (and names) the ids of its source's runs.
 *
 * The runs index first (global: on a cluster it shares no slot with the run), then everything in
 * the seller's slot in one MULTI: the record, its reader's mark, and its place in the seller's runs
 * and in its source's runs. Stopped between the two, the run is a record listed by its seller and
 * source, unmarked: the next import of the source ends it as a run whose reader stopped. Never an
 * id listed without its record.
 */
export async function forgetSteppedAside(
  redis: Redis,
  keys: RedisKeys,
  run: Pick<RunRecord, 'id' | 'sellerRef' | 'sourceId' | 'sourceAddressId'>,
): Promise<void> {
  await redis.zrem(keys.runs, run.id);
  const multi = redis
    .multi()
    .zrem(keys.sellerRuns(run.sellerRef), run.id)
    .del(keys.run(run.id), keys.producing(run.id));
  const sourceRuns = runsOfSourceKey(keys, run);
  if (sourceRuns) multi.zrem(sourceRuns, run.id);
  await multi.exec();
}
