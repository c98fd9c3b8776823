import type { Redis } from 'ioredis';
import type { RowOutcome } from '../interfaces.js';
import type { RunNotifier } from '../notify/notifier.js';
import type { RedisKeys } from '../runs/keys.js';
import type { RunStore } from '../runs/run-store.js';
import { recordFullRead } from '../sync/incremental.js';

/**
 * Ends a run once every row is settled: one `missing` line per remote product the source does not
 * hold (the API has no delete: the seller decides), then the run is done. Exactly one caller does it.
 */
export async function finaliseIfSettled(
  deps: { redis: Redis; keys: RedisKeys; runs: RunStore; notifier?: RunNotifier },
  runId: string,
): Promise<boolean> {
  if (!(await deps.runs.claimFinalisation(runId))) return false;
  const { redis, keys } = deps;
  let cursor = '0';
  do {
    const [next, flat] = await redis.hscan(keys.products(runId), cursor, 'COUNT', 500);
    cursor = next;
    const ids: string[] = [];
    for (let i = 0; i < flat.length; i += 2) ids.push(flat[i] as string);
    if (ids.length === 0) continue;
    const [touched, matchKeys] = await Promise.all([
      redis.smismember(keys.touched(runId), ...ids),
      redis.hmget(keys.idToKey(runId), ...ids),
    ]);
    const keyed = matchKeys.map((key) => key ?? '');
    const placeholders = keyed.map((key) => key || '\u0000');
    const [inSource, owners] = await Promise.all([
      redis.smismember(keys.sourceKeys(runId), ...placeholders),
      redis.hmget(keys.keyToId(runId), ...placeholders),
    ]);
    const missing: RowOutcome[] = [];
    ids.forEach((id, i) => {
      // A key the source holds covers one product only: a second remote product under it is missing.
      const held = inSource[i] === 1 && owners[i] === id;
      if (touched[i] === 1 || held) return;
      missing.push({
        row: null,
        key: keyed[i] ?? '',
        action: 'missing',
        productId: id,
        status: 'ok',
        error: '',
      });
    });
    await deps.runs.addMissing(runId, missing);
  } while (cursor !== '0');
  await deps.runs.finish(runId);
  const run = await deps.runs.get(runId);
  if (run) await recordFullRead(redis, keys, run);
  if (run?.sourceId) {
    // Only this run's claim: a newer import of the same source may hold the key by now.
    await redis.eval(
      "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0",
      1,
      keys.activeRun(run.sellerRef, run.sourceId),
      runId,
    );
  }
  // Last: the run is done whatever the webhook does (the notifier never throws, and its tries are bounded).
  if (run) await deps.notifier?.notifyRun('ended', run);
  return true;
}
