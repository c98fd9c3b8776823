import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { decideGuardsIfPlanned } from '../guards/decide.js';
import type { RowOutcome } from '../interfaces.js';
import type { Logger } from '../logger.js';
import type { RunNotifier } from '../notify/notifier.js';
import type { RedisKeys } from '../runs/keys.js';
import type { RunStore } from '../runs/run-store.js';
import { runCounts } from '../runs/summary.js';
import { recordFullRead } from '../sync/incremental.js';
import type { ChunkJobData } from './chunk-job.js';

type FinaliseDeps = {
  redis: Redis;
  keys: RedisKeys;
  runs: RunStore;
  notifier?: RunNotifier;
  logger?: Logger;
};

/**
 * After a chunk: a guarded run whose rows are all planned has its guards decided (src/guards), then
 * a run whose rows are all settled is ended. True for the one caller that ended it.
 */
export async function advanceRun(
  deps: FinaliseDeps,
  runId: string,
  queue: Queue<ChunkJobData>,
): Promise<boolean> {
  await decideGuardsIfPlanned(deps, runId, queue);
  return finaliseIfSettled(deps, runId);
}

/**
 * Ends a run once every row is settled: one `missing` line per remote product the source does not
 * hold (the API has no delete: the seller decides), then the run is done (or cancelled, when
 * `cancel` asked for it). Exactly one caller does it.
 */
export async function finaliseIfSettled(deps: FinaliseDeps, runId: string): Promise<boolean> {
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
  // `cancel` ended it; or a guard held rows back: the run waits for `approve` in state `held`.
  const cancelled = (await deps.runs.get(runId))?.cancelledAt !== undefined;
  const held = !cancelled && Number((await redis.hget(keys.run(runId), 'status:held')) ?? 0) > 0;
  await deps.runs.finish(runId, Date.now(), { held, cancelled });
  const run = await deps.runs.get(runId);
  // A cancelled run did not send every row: the seller's record is not as complete as a full read.
  if (run && !cancelled) await recordFullRead(redis, keys, run);
  if (run) {
    // The one line a worker's log holds per run end: what became of its rows.
    deps.logger?.info(
      {
        run: runId,
        seller: run.sellerRef,
        state: run.state,
        rows: run.total,
        ...runCounts(run),
        requests: run.requests,
        writes: run.writes,
      },
      `run ${runId} ${run.state}`,
    );
  }
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
  // A run a guard held waits for `approve`: the webhook hears `held`, with the reason, not `ended`.
  if (run) await deps.notifier?.notifyRun(run.state === 'held' ? 'held' : 'ended', run);
  return true;
}
