import { bullmq } from '../cjs-packages.js';
import { RUN_TTL_SECONDS } from '../defaults.js';
import type { Logger } from '../logger.js';
import { NOT_READ_TO_END } from '../missing/verdict.js';
import type { RunNotifier } from '../notify/notifier.js';
import type { ChunkJobData } from '../runs/chunk-job.js';
import type { RunStore } from '../runs/run-store.js';
import { jobsOfRun, WAITING_STATES } from './cancel-run.js';
import { type MarkDeps, producerLives } from './producing-mark.js';
import { queueOptions } from './queue-options.js';
import { throttledErrorLog } from './quiet-errors.js';
import { releaseSource } from './source-claim.js';
import { supersedeIfUnwritten } from './supersede.js';

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
    if ((await endIfStopped(deps, ref, holder, runId, signal)) === 'unfinished') return holder;
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
  if ((await endIfStopped(deps, ref, earlier, runId, signal)) !== 'unfinished') return;
  // Unfinished: still being read (left to its reader), or read to the end.
  const run = await deps.runs.get(earlier);
  if (run?.produced && (run.state === 'queued' || run.state === 'running'))
    await supersedeIfUnwritten(deps, run, runId);
}

/**
 * `earlier`, unfinished: still being read, or read to the end, it is `unfinished`. Stopped before
 * its source was read to the end (Redis refused a write, its process died or left it unread on a
 * pause) it can never end: `ended` here, its queued chunks do nothing; this run reads the source
 * anew (the products the earlier one created are found by the list read and the id map).
 */
async function endIfStopped(
  deps: ClaimDeps,
  ref: string,
  earlier: string,
  runId: string,
  signal?: AbortSignal,
): Promise<'unfinished' | 'ended' | 'over'> {
  // The mark first, then the record: the producer clears the mark and sets `produced` in one step.
  const beingRead = await producerLives(deps, earlier, { signal });
  const run = await deps.runs.get(earlier);
  if (!run || run.state === 'done' || run.state === 'held') return 'over';
  // Ending early (its source broke): it ends by itself once the rows its workers hold settle.
  if (beingRead || run.produced || run.endingEarly !== undefined) return 'unfinished';
  const endedEarly = `its process stopped before the source was read to the end; run ${runId} reads it anew`;
  await deps.runs.finish(earlier, Date.now(), {
    aborted: true,
    endedEarly,
    ...(run.missing ? { missingNotApplied: NOT_READ_TO_END } : {}),
  });
  await deps.redis.del(deps.keys.producing(earlier));
  await dropWaitingChunks(deps, ref, earlier);
  deps.logger.warn(
    { run: earlier },
    `run ${earlier} stopped before its source was read to the end: ended; run ${runId} starts over`,
  );
  // Its own process, which would have told the webhook, is gone.
  await deps.notifier?.notifyRunById('ended', earlier, (id) => deps.runs.get(id));
  return 'ended';
}

/**
 * The waiting chunks of a run ended unread: a worker would take them only to do nothing, and while
 * the seller is paused they would hold the queue at its high-water mark against the new run.
 */
async function dropWaitingChunks(deps: ClaimDeps, ref: string, runId: string): Promise<void> {
  const queueName = deps.keys.sellerQueue(ref);
  const queue = new (bullmq().Queue)<ChunkJobData>(queueName, queueOptions(deps.redis, deps.prefix));
  queue.on('error', throttledErrorLog(deps.logger, `queue ${queueName}`));
  try {
    for (const job of await jobsOfRun(queue, runId, WAITING_STATES)) await queue.remove(job.id as string);
  } finally {
    await queue.close();
  }
}
