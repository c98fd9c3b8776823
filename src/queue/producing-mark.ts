import type { Redis } from 'ioredis';
import { BEATS_BEFORE_DEAD, PRODUCING_BEAT_MS, PRODUCING_BEATS_KEPT } from '../defaults.js';
import { formatDuration } from '../duration.js';
import type { RedisKeys } from '../runs/keys.js';
import type { RunRecord } from '../runs/run-store.js';

/**
 * A run's `producing` mark: its producer (the process reading its source) renews it every beat with
 * a new value, and it expires six beats after the last. Another import of the source, and `cancel`,
 * tell by it whether the source is still being read.
 */
export interface MarkDeps {
  redis: Redis;
  keys: RedisKeys;
  /** How often a producer renews its mark (default PRODUCING_BEAT_MS); a test seam. */
  producingBeatMs?: number;
}

export function beatEvery(deps: MarkDeps): number {
  return deps.producingBeatMs ?? PRODUCING_BEAT_MS;
}

/**
 * The producer's beat: each writes a new value, by which a live producer is told from a dead one.
 * It also lists the run among its seller's runs being read until the mark would expire: a later
 * run's chunks wait for a run still read (run-order.ts), and for a killed producer's only that long.
 */
export function producingBeat(deps: MarkDeps, runId: string, sellerRef: string): () => Promise<unknown> {
  const mark = deps.keys.producing(runId);
  const reading = deps.keys.sellerReading(sellerRef);
  let beats = 0;
  return () => {
    const lifetime = beatEvery(deps) * PRODUCING_BEATS_KEPT;
    return Promise.all([
      deps.redis.set(mark, String(++beats), 'PX', lifetime),
      deps.redis.zadd(reading, Date.now() + lifetime, runId),
    ]);
  };
}

/**
 * The run's source is read no more (read to its end, left unread, failed, interrupted, or its reader
 * found dead): its mark goes, or the next run of the source would watch it for three beats to learn
 * that (producerLives), and it leaves its seller's runs being read. Called once its beat has stopped
 * (the beats and this go on one connection, in order), so that no late beat marks or lists it again.
 * The mark first: a delete is taken even by a full Redis.
 */
export async function readingEnded(deps: MarkDeps, runId: string, sellerRef: string): Promise<void> {
  await deps.redis.del(deps.keys.producing(runId));
  await deps.redis.zrem(deps.keys.sellerReading(sellerRef), runId);
}

/** How a run watches other runs' readers (producerLives): given up on a signal, and told. */
export interface ReaderWatch {
  /** Aborted: the watch is given up, the reader taken as alive (nothing is ended on the way out). */
  signal?: AbortSignal;
  /** Told as a reader's mark starts to be watched: whose, and how long the answer may take. */
  onWatch?: (runId: string, upToMs: number) => void;
}

/**
 * A ReaderWatch that tells `tell` of each run once: a run's claim and its watch of the source's
 * earlier runs (enqueue-run.ts) may both watch the same reader.
 */
export function watchTellingOnce(
  signal: AbortSignal | undefined,
  tell: ((runId: string, upToMs: number) => void) | undefined,
): ReaderWatch {
  const told = new Set<string>();
  const onWatch = (runId: string, upToMs: number) => {
    if (told.has(runId)) return;
    told.add(runId);
    tell?.(runId, upToMs);
  };
  return { ...(signal ? { signal } : {}), ...(tell ? { onWatch } : {}) };
}

/**
 * Why a run waits before it reads its source, in one line for the user: an earlier run's reader
 * left its mark, and only a mark that changes tells a live reader from a killed one.
 */
export function readerWatchText(deps: MarkDeps, runId: string, upToMs: number): string {
  const beat = beatEvery(deps);
  return (
    `run ${runId} left a reader's mark on this source: waiting up to ${formatDuration(upToMs)} to tell ` +
    `whether its process still reads it (a live one renews its mark every ${formatDuration(beat)}; ` +
    `a killed process leaves its mark up to ${formatDuration(beat * PRODUCING_BEATS_KEPT)})`
  );
}

/**
 * Whether the run's source is still being read by a live producer. Its mark outlives a killed
 * process by up to six beats, so a mark is believed only once it changes: a producer renews it every
 * beat. Unchanged for three beats, or gone, it is a dead producer's (a kill -9, or Redis out of reach
 * past its deadline), and an import waiting on it would wait for ever.
 */
export async function producerLives(
  deps: MarkDeps,
  runId: string,
  options: {
    signal?: AbortSignal;
    /** Told once when there is a mark to watch: the answer may take up to three beats. */
    onWatch?: (upToMs: number) => void;
  } = {},
): Promise<boolean> {
  const { signal } = options;
  const mark = deps.keys.producing(runId);
  const first = await deps.redis.get(mark);
  if (first === null) return false;
  options.onWatch?.(BEATS_BEFORE_DEAD * beatEvery(deps));
  const beatMs = beatEvery(deps);
  const pollMs = Math.max(10, beatMs / 20);
  // Counted in polls, not by the clock: an observer that is slow itself only waits longer.
  for (let waited = 0; waited < BEATS_BEFORE_DEAD * beatMs; waited += pollMs) {
    // Interrupted: taken as alive, so that nothing is ended on the way out.
    if (signal?.aborted) return true;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    const now = await deps.redis.get(mark);
    if (now === null) return false;
    if (now !== first) return true;
  }
  return false;
}

/**
 * Whether the run was left with its source unread by a process that stopped reading it (a kill -9,
 * Redis out of reach, an exit on a pause): not read to the end, not over, and its mark gone (it
 * expires six beats after a dead producer's last). Such a run never ends by itself; `status` says so.
 * One look, no watch: a mark present, even a dead producer's, is taken as a reader still at work.
 */
export async function readerStopped(
  deps: Pick<MarkDeps, 'redis' | 'keys'>,
  run: Pick<
    RunRecord,
    'id' | 'state' | 'produced' | 'aborted' | 'endingEarly' | 'cancelledAt' | 'createdAt' | 'total'
  >,
  now = Date.now(),
): Promise<boolean> {
  // A run ending early (its source broke) ends by itself once its rows under way settle.
  if (run.produced || run.aborted || run.endingEarly !== undefined || run.cancelledAt !== undefined)
    return false;
  // A run is created a round trip before its first mark: one younger than a beat is being read,
  // unless it counted rows already (its mark came before its first row: an import interrupted
  // seconds in took its mark away on purpose).
  if (now - run.createdAt < beatEvery(deps) && run.total === 0) return false;
  if (run.state !== 'queued' && run.state !== 'running') return false;
  return (await deps.redis.exists(deps.keys.producing(run.id))) === 0;
}

/** Why the run can never end by itself, and the two ways to end it. */
export function leftUnreadText(run: Pick<RunRecord, 'id' | 'sourceId'>): string {
  return `its source was left unread: the process reading it stopped before the end; ${endWays(run)}`;
}

/** The ways to end a run whose source was left unread (leftUnreadText), in words for the user. */
export function endWays(run: Pick<RunRecord, 'id' | 'sourceId'>): string {
  const cancel = `\`catalog-sync cancel ${run.id}\``;
  // Standard input is never taken for an earlier run's source: only a cancel ends it.
  return run.sourceId === null
    ? `${cancel} ends it`
    : `run the same source again (that ends this run and reads the source anew), or ${cancel}`;
}
