import { RUN_TTL_SECONDS } from '../defaults.js';
import type { Logger } from '../logger.js';
import type { RunNotifier } from '../notify/notifier.js';
import type { RunStore } from '../runs/run-store.js';
import { type MarkDeps, producerLives } from './producing-mark.js';
import { releaseSource } from './source-claim.js';
import { supersedeIfUnwritten } from './supersede.js';
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
  signal?: AbortSignal,
): Promise<string | null> {
  const key = deps.keys.activeRun(ref, sourceId);
  for (let attempt = 0; attempt < 3; attempt++) {
    // The run's lifetime: a claim left by a killed `run` is not kept for ever (the run's record is not).
    if ((await deps.redis.set(key, runId, 'EX', RUN_TTL_SECONDS, 'NX')) === 'OK') return null;
    const holder = await deps.redis.get(key);
    if (!holder) continue;
    // The rest may take a few beats: meanwhile another import may end the holder and claim the
    // source, so the claim is given up only while it is still the holder's.
    if ((await endIfStopped(deps, holder, runId, signal)) === 'unfinished') return holder;
    await releaseSource(deps.redis, deps.keys, ref, sourceId, holder);
  }
  return null;
}

/**
 * A new run of a source whose content changed (another file size or mtime, another feed) is not
 * the earlier run's, but a run of the same address stopped before its source was read to the end
 * can never end by itself all the same: ended here, as a re-run of the same content ends it
 * (claimSource). One read to the end whose rows nobody is writing now is superseded (supersede.ts):
 * waiting out the seller's daily limit, or queued after it with no worker on it. One still being
 * read, or being written now, is left to run first; a held one is left to `approve`.
 */
export async function endStoppedRunOfAddress(
  deps: ClaimDeps,
  ref: string,
  addressId: string,
  runId: string,
  signal?: AbortSignal,
): Promise<void> {
  const key = deps.keys.lastRunOfSource(ref, addressId);
  const answers = await deps.redis.multi().get(key).set(key, runId, 'EX', RUN_TTL_SECONDS).exec();
  const earlier = answers?.[0]?.[1];
  if (typeof earlier !== 'string' || earlier === runId) return;
  if ((await endIfStopped(deps, earlier, runId, signal)) !== 'unfinished') return;
  // Unfinished: still being read (left to its reader), or read to the end.
  const run = await deps.runs.get(earlier);
  if (run?.produced && (run.state === 'queued' || run.state === 'running'))
    await supersedeIfUnwritten(deps, run, runId);
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
  signal?: AbortSignal,
): Promise<'unfinished' | 'ended' | 'over'> {
  // The mark first, then the record: the producer clears the mark and sets `produced` in one step.
  const beingRead = await producerLives(deps, earlier, { signal });
  const run = await deps.runs.get(earlier);
  if (!run || run.state === 'done' || run.state === 'held' || run.state === 'cancelled') return 'over';
  // Ending already (its source broke, another import ended it, `cancel`): it ends by itself.
  if (run.endingEarly !== undefined || run.cancelledAt !== undefined) return 'over';
  if (beingRead || run.produced) return 'unfinished';
  const endedEarly = `its process stopped before the source was read to the end; run ${runId} reads it anew`;
  await deps.redis.del(deps.keys.producing(earlier));
  deps.logger.warn(
    { run: earlier },
    `run ${earlier} stopped before its source was read to the end: it ends once the rows under way settle (its queued rows are not sent); run ${runId} starts over`,
  );
  // Its own process, which would have told the webhook, is gone: the run's end tells it (finalise.ts).
  await endRunEarly(deps, run, endedEarly, 'reader-stopped');
  return 'ended';
}
