import type { RunRecord } from '../runs/run-store.js';
import { runsOfSourceKey } from '../runs/source-runs.js';
import { type ClaimDeps, endUnlessRead } from './claim-source.js';
import { producerLives } from './producing-mark.js';
import { supersedeIfUnwritten } from './supersede.js';

/**
 * Every earlier run of this run's source not known to be over (RedisKeys.runsOfSource), however
 * many: a run whose process stopped before its source was read to the end can never end by itself,
 * and is ended here as a re-run of the same content ends its holder (claimSource). Not only the
 * holder of the source's claim: a run killed while it waited on an earlier reader (it never claimed
 * the source), or a run of the same address with other content (a changed file or feed), is ended
 * all the same. One of a file or feed read to the end whose rows nobody is writing now is superseded
 * (supersede.ts): waiting out the seller's daily limit, or queued after it with no worker on it. One
 * still being read, or being written now, is left to run first; a held one is left to `approve`.
 * Runs found over leave the set: what this costs is a few commands per earlier run, once per run.
 */
export async function endEarlierRunsOfSource(
  deps: ClaimDeps,
  run: RunRecord,
  signal?: AbortSignal,
): Promise<void> {
  const key = runsOfSourceKey(deps.keys, run);
  if (!key) return;
  const listed = await deps.redis.zrangebyscore(key, '-inf', run.createdAt);
  const earlier = new Set([...listed, ...(await formerLastRun(deps, run))]);
  earlier.delete(run.id);
  const ids = [...earlier];
  // Watched at once: a killed reader's mark takes three beats to be known dead, each as long.
  const beingRead = await Promise.all(ids.map((id) => producerLives(deps, id, { signal })));
  // Interrupted: nothing is ended or superseded on the way out.
  if (signal?.aborted) return;
  for (const [i, id] of ids.entries()) {
    const outcome = await endUnlessRead(deps, id, run.id, beingRead[i] === true);
    // Unfinished: still being read (left to its reader), or read to the end. A store's is never
    // superseded: its rows are read as they are queued (it is attached to, as its claim's holder).
    if (outcome === 'unfinished' && run.sourceAddressId) {
      const found = await deps.runs.get(id);
      if (found?.produced && (found.state === 'queued' || found.state === 'running'))
        await supersedeIfUnwritten(deps, found, run.id);
    }
    // Over: gone with its week, done, cancelled, held (approve writes it, never a read of the source).
    const after = await deps.runs.get(id);
    if (!after || after.state === 'done' || after.state === 'cancelled' || after.state === 'held')
      await deps.redis.zrem(key, id);
  }
}

/**
 * The run an earlier version kept as the latest of this address (RedisKeys.lastRunOfSource), read
 * and deleted: a run it left unread is not listed among its source's runs, and would never end.
 */
async function formerLastRun(deps: ClaimDeps, run: RunRecord): Promise<string[]> {
  if (!run.sourceAddressId) return [];
  const key = deps.keys.lastRunOfSource(run.sellerRef, run.sourceAddressId);
  const answers = await deps.redis.multi().get(key).del(key).exec();
  const former = answers?.[0]?.[1];
  return typeof former === 'string' ? [former] : [];
}
