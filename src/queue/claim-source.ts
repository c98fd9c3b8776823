import { RUN_TTL_SECONDS } from '../defaults.js';
import type { Logger } from '../logger.js';
import type { RunNotifier } from '../notify/notifier.js';
import type { RunStore } from '../runs/run-store.js';
import { type MarkDeps, producerLives, type ReaderWatch, readingEnded } from './producing-mark.js';
import { releaseSource } from './source-claim.js';
import { endRunEarly } from './unsent-rows.js';

/** What the claims need of the enqueue's deps (enqueue-run.ts). */
export interface ClaimDeps extends MarkDeps {
  runs: RunStore;
  prefix: string;
  logger: Logger;
  /** Tells an ended run's `--notify` webhook (absent in tests that do not need it). */
  notifier?: RunNotifier;
}

/** Claims the source for this run; resolves to the id of an unfinished earlier run that holds it. */
export async function claimSource(
  deps: ClaimDeps,
  ref: string,
  sourceId: string,
  runId: string,
  watch: ReaderWatch = {},
): Promise<string | null> {
  const key = deps.keys.activeRun(ref, sourceId);
  for (let attempt = 0; attempt < 3; attempt++) {
    // The run's lifetime: a claim left by a killed `run` is not kept for ever (the run's record is not).
    if ((await deps.redis.set(key, runId, 'EX', RUN_TTL_SECONDS, 'NX')) === 'OK') return null;
    const holder = await deps.redis.get(key);
    if (!holder) continue;
    // The rest may take a few beats: meanwhile another import may end the holder and claim the
    // source, so the claim is given up only while it is still the holder's.
    if ((await endIfStopped(deps, holder, runId, watch)) === 'unfinished') return holder;
    await releaseSource(deps.redis, deps.keys, ref, sourceId, holder);
  }
  return null;
}

/**
 * `earlier`, unfinished: still being read, or read to the end, it is `unfinished`. Stopped before
 * its source was read to the end (Redis refused a write, its process died or left it unread on a
 * pause) it can never end by itself: it is `ended` here as a run whose source broke ends
 * (unsent-rows.ts): its queued chunks are taken out and their rows settled not sent (its reader
 * stopped), a chunk a worker holds is left to finish, and the run ends, aborted, once the rows of
 * those settle; never `done` with a row of it open. This run reads the source anew (the products the
 * earlier one created are found by the list read and the id map). Ending already (its source broke,
 * another import ended it, or `cancel`), it is as good as `over`: it holds the source for nobody.
 */
async function endIfStopped(
  deps: ClaimDeps,
  earlier: string,
  runId: string,
  watch: ReaderWatch,
): Promise<StoppedOutcome> {
  return endUnlessRead(deps, earlier, runId, await readerLives(deps, earlier, watch));
}

/**
 * producerLives of an earlier run whose record leaves that to decide (endUnlessRead): one over,
 * ending already, or read to its end is not watched (false), whatever mark it left, so that nothing
 * waits three beats on an answer that changes nothing.
 */
export async function readerLives(deps: ClaimDeps, earlier: string, watch: ReaderWatch): Promise<boolean> {
  const run = await deps.runs.get(earlier);
  const undecided =
    run !== null &&
    !run.produced &&
    run.endingEarly === undefined &&
    run.cancelledAt === undefined &&
    (run.state === 'queued' || run.state === 'running');
  if (!undecided) return false;
  const { signal, onWatch } = watch;
  return producerLives(deps, earlier, {
    ...(signal ? { signal } : {}),
    ...(onWatch ? { onWatch: (upToMs: number) => onWatch(earlier, upToMs) } : {}),
  });
}

export type StoppedOutcome = 'unfinished' | 'ended' | 'over';

/**
 * endIfStopped, its reader's mark watched already: `beingRead` (producerLives). The mark first, then
 * the record: the producer clears the mark and sets `produced` in one step.
 */
export async function endUnlessRead(
  deps: ClaimDeps,
  earlier: string,
  runId: string,
  beingRead: boolean,
): Promise<StoppedOutcome> {
  const run = await deps.runs.get(earlier);
  if (!run || run.state === 'done' || run.state === 'held' || run.state === 'cancelled') return 'over';
  // Ending already (its source broke, another import ended it, `cancel`): it ends by itself.
  if (run.endingEarly !== undefined || run.cancelledAt !== undefined) return 'over';
  if (beingRead || run.produced) return 'unfinished';
  const endedEarly = `its process stopped before the source was read to the end; run ${runId} reads it anew`;
  // Read no more: the seller's later runs (this one first) do not wait for its mark to run out.
  await readingEnded(deps, earlier, run.sellerRef);
  deps.logger.warn(
    { run: earlier },
    `run ${earlier} stopped before its source was read to the end: it ends once the rows under way settle (its queued rows are not sent); run ${runId} starts over`,
  );
  // Its own process, which would have told the webhook, is gone: the run's end tells it (finalise.ts).
  await endRunEarly(deps, run, endedEarly, 'reader-stopped');
  return 'ended';
}
