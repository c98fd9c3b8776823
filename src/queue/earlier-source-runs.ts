import type { RunRecord } from '../runs/run-store.js';
import { runsOfSourceKey } from '../runs/source-runs.js';
import { type ClaimDeps, endUnlessRead, readerLives } from './claim-source.js';
import { beatEvery, type ReaderWatch } from './producing-mark.js';
import { supersedeIfUnwritten } from './supersede.js';

/** An earlier run of the source, and whether its reader's mark still changes (producerLives). */
interface WatchedRun {
  id: string;
  createdAt: number;
  beingRead: boolean;
}

/** The earlier runs of a source as their marks are watched; `stop` gives the watch up (attached). */
export interface EarlierRunsWatch {
  runs: Promise<WatchedRun[]>;
  stop(): void;
}

/**
 * Starts watching the readers' marks of every earlier run of this run's source not known to be
 * over (RedisKeys.runsOfSource), however many, at once: a killed reader's mark takes three beats to
 * be known dead, each as long. Begun before the source is claimed, so that the claim's own watch of
 * its holder (claimSource) and these overlap; acted on by endEarlierRunsOfSource once it is claimed.
 */
export function watchEarlierRuns(
  deps: ClaimDeps,
  run: RunRecord,
  { signal, onWatch }: ReaderWatch = {},
): EarlierRunsWatch {
  const stopped = new AbortController();
  const stop = () => stopped.abort();
  signal?.addEventListener('abort', stop, { once: true });
  const runs = (async () => {
    const key = runsOfSourceKey(deps.keys, run);
    if (!key) return [];
    const scored = await deps.redis.zrangebyscore(key, '-inf', run.createdAt, 'WITHSCORES');
    const found = new Map<string, number>();
    for (let i = 0; i + 1 < scored.length; i += 2) found.set(scored[i] as string, Number(scored[i + 1]));
    const former = await formerLastRun(deps, run);
    if (former !== null && !found.has(former)) found.set(former, 0);
    found.delete(run.id);
    // Given up (interrupted, attached): taken as alive, so that nothing is ended.
    return Promise.all(
      [...found].map(async ([id, createdAt]) => {
        const told = onWatch && (await namesAReader(deps, id)) ? { onWatch } : {};
        return { id, createdAt, beingRead: await readerLives(deps, id, { signal: stopped.signal, ...told }) };
      }),
    );
  })();
  runs.catch(() => undefined);
  return {
    runs,
    stop() {
      stop();
      signal?.removeEventListener('abort', stop);
    },
  };
}

/**
 * Ends every earlier run of this run's source that its watch found stopped unread: such a run can
 * never end by itself, and is ended here as a re-run of the same content ends its holder
 * (claimSource). Not only the claim's holder: a run killed while it waited on an earlier reader (it
 * never claimed the source), or a run of the same address with other content (a changed file or
 * feed), is ended all the same. One of a file or feed read to the end whose rows nobody is writing
 * now is superseded (supersede.ts): waiting out the seller's daily limit, or queued after it with no
 * worker on it. One still being read, or being written now, is left to run first; a held one is
 * left to `approve`, and an approved one is kept (supersede.ts). Runs found over leave the set. A few commands per earlier run, once per run.
 */
export async function endEarlierRunsOfSource(
  deps: ClaimDeps,
  run: RunRecord,
  watch: EarlierRunsWatch,
  signal?: AbortSignal,
): Promise<void> {
  const watched = await watch.runs;
  watch.stop();
  // Interrupted: nothing is ended or superseded on the way out.
  if (signal?.aborted) return;
  const key = runsOfSourceKey(deps.keys, run);
  if (!key) return;
  // Read once: from now on a run of that address an earlier version left is listed, or over.
  if (run.sourceAddressId)
    await deps.redis.del(deps.keys.lastRunOfSource(run.sellerRef, run.sourceAddressId));
  for (const { id, createdAt, beingRead } of watched) {
    const outcome = await endUnlessRead(deps, id, run.id, beingRead || (await starting(deps, id, createdAt)));
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
 * Whether the wait on this run's mark is told by its id: only a run that holds its source's claim,
 * or has read rows of it, is a reader, and it never steps aside. Another import started at about the
 * same time (not claimed, nothing read) marks itself too, but most often steps aside a moment later
 * and takes its run back (stepped-aside.ts): named, the user would be told of a run `status` never
 * finds. Its mark is watched all the same, silently: the claim's holder is told (claimSource).
 */
async function namesAReader(deps: ClaimDeps, id: string): Promise<boolean> {
  const record = await deps.runs.get(id);
  if (!record) return false;
  if (record.total > 0 || record.produced || record.sourceId === null) return true;
  return (await deps.redis.get(deps.keys.activeRun(record.sellerRef, record.sourceId))) === id;
}

/**
 * The run an earlier version kept as the latest of this address (RedisKeys.lastRunOfSource): a run
 * it left unread is not listed among its source's runs, and would never end otherwise.
 */
async function formerLastRun(deps: ClaimDeps, run: RunRecord): Promise<string | null> {
  if (!run.sourceAddressId) return null;
  return deps.redis.get(deps.keys.lastRunOfSource(run.sellerRef, run.sourceAddressId));
}

/**
 * A run created a round trip before its reader's first mark: younger than a beat and with no row
 * read yet, it is taken as being read. One that read rows and stopped (its queue full under a
 * `--no-wait` pause, the process gone) is not starting, however young: a changed feed's next run
 * ends it at once, as it did before runs were listed per source.
 */
async function starting(deps: ClaimDeps, id: string, createdAt: number): Promise<boolean> {
  if (Date.now() - createdAt >= beatEvery(deps)) return false;
  const record = await deps.runs.get(id);
  return record !== null && record.total === 0;
}
