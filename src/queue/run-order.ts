import type { Job, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { bullmq } from '../cjs-packages.js';
import { RUN_ORDER_RECHECK_MS } from '../defaults.js';
import type { Logger } from '../logger.js';
import { runScript } from '../redis/scripts.js';
import type { ChunkJobData } from '../runs/chunk-job.js';
import type { RedisKeys } from '../runs/keys.js';
import {
  EARLIER_RUN,
  NEXT_RUN_CHUNKS,
  REVERT_TURN,
  RUN_WAITED_FOR,
  WAITING_AHEAD,
} from './run-order-scripts.js';

/**
 * The runs of one seller are written one after the other, in the order they were created: a chunk
 * of a later run is not begun while an earlier run of the seller still has a chunk in its queue
 * (waiting, put back, or under way on any worker) or its source is still being read. Two exports
 * queued while no worker ran, taken at once by two workers (or by the two chunks one worker takes
 * at a time), would otherwise race product by product, and the older values could be the ones left.
 *
 * A chunk that must wait is put back among the delayed jobs (its slot takes other work, so the
 * earlier run's chunks queued behind it are taken: no deadlock), listed as waiting; the end of the
 * earlier run's last chunk, wherever it runs, moves the waiting chunks of the next run back to the
 * queue (BullMQ's promote: the workers waiting on the queue wake at once). RUN_ORDER_RECHECK_MS
 * is only the backstop for an end nobody saw (a process killed in between).
 *
 * An approval's writes (`approve`: its `approve` chunks and the deactivations it queues) never wait:
 * they check a later run's source themselves (guards/superseded.ts). They hold back a run created
 * after they were queued (its list read must see them, or it would hold the same rows again), never
 * one created before (the order goes by each chunk's job timestamp: run-order-scripts.ts).
 */

export interface RunOrderDeps {
  /** The tool's own connection: the scripts run on it. */
  redis: Redis;
  keys: RedisKeys;
  now: () => number;
}

/** What BullMQ's keys of the seller's queue start with (`prefix:QUEUE:`), a job's hash among them. */
function queueKeyPrefix(keys: RedisKeys, sellerRef: string): string {
  return `${keys.prefix}:${keys.sellerQueue(sellerRef)}:`;
}

function orderKeys(keys: RedisKeys, sellerRef: string): string[] {
  const queue = queueKeyPrefix(keys, sellerRef);
  return [
    ...['active', 'wait', 'delayed', 'prioritized'].map((name) => queue + name),
    keys.sellerRuns(sellerRef),
    keys.sellerReading(sellerRef),
    keys.behindEarlierRuns(sellerRef),
  ];
}

/** An approval's chunk: it waits for no earlier run (it holds back only runs created after it was queued). */
export function isApprovalChunk(data: Pick<ChunkJobData, 'phase' | 'round'>): boolean {
  return data.phase === 'approve' || (data.phase === 'deactivate' && (data.round ?? 0) > 0);
}

/**
 * The earlier run of the seller that the chunk `jobId` of `runId` (in the seller's queue) waits
 * for, or null. When there is one, the chunk is listed as waiting for it.
 */
export async function earlierRunOf(
  deps: RunOrderDeps,
  sellerRef: string,
  runId: string,
  jobId: string,
): Promise<string | null> {
  const keys = [...orderKeys(deps.keys, sellerRef), queueKeyPrefix(deps.keys, sellerRef) + jobId];
  const earlier = await runScript(deps.redis, EARLIER_RUN, ...keys, runId, jobId, deps.now());
  return typeof earlier === 'string' ? earlier : null;
}

/** The earlier run of the seller that `runId`'s chunks wait for (runs are written in order), or null. */
export async function runWaitedFor(
  deps: RunOrderDeps,
  sellerRef: string,
  runId: string,
): Promise<string | null> {
  const earlier = await runScript(
    deps.redis,
    RUN_WAITED_FOR,
    ...orderKeys(deps.keys, sellerRef),
    runId,
    deps.now(),
  );
  return typeof earlier === 'string' ? earlier : null;
}

/**
 * The jobs waiting in the seller's queue that go before the chunks `runId` queues now: the
 * producer's backpressure (queue-room.ts) counts these, not the later runs' chunks put back behind it.
 */
export async function waitingAhead(deps: RunOrderDeps, sellerRef: string, runId: string): Promise<number> {
  return Number(await runScript(deps.redis, WAITING_AHEAD, ...orderKeys(deps.keys, sellerRef), runId));
}

/** A run of the seller that a revert would race, and where it is. */
export interface RunInTheWay {
  runId: string;
  /** `read`: its source is being read (or it is being reverted); `active`: a chunk under way; `queued`: chunks waiting. */
  where: 'read' | 'active' | 'queued';
}

/**
 * A revert's turn (revert-turn.ts): the run of the seller in its way, or null, and then `runId` is
 * listed as being read until `untilMs` (a later run's chunks wait for it). One step, so that no run
 * begins between the look and the mark.
 */
export async function takeRevertTurn(
  deps: RunOrderDeps,
  sellerRef: string,
  runId: string,
  lifetimeMs: number,
): Promise<RunInTheWay | null> {
  const found = await runScript(
    deps.redis,
    REVERT_TURN,
    ...orderKeys(deps.keys, sellerRef),
    runId,
    deps.now(),
    lifetimeMs,
  );
  if (!Array.isArray(found)) return null;
  return { runId: String(found[0]), where: found[1] as RunInTheWay['where'] };
}

/**
 * Moves the waiting chunks of the seller's next run back to its queue, once no earlier run holds
 * them back. Called when a chunk of the seller's queue ends or is removed, and when a source is read
 * no more. `queue`: the seller's, or a maker of it, called only when there is a chunk to promote.
 */
export async function wakeNextRun(
  deps: RunOrderDeps,
  sellerRef: string,
  queue: Queue<ChunkJobData> | (() => Queue<ChunkJobData>),
): Promise<void> {
  const ids = (await runScript(
    deps.redis,
    NEXT_RUN_CHUNKS,
    ...orderKeys(deps.keys, sellerRef),
    deps.now(),
  )) as string[];
  if (ids.length === 0) return;
  const seller = typeof queue === 'function' ? queue() : queue;
  try {
    for (const id of ids) {
      // Taken meanwhile by its fallback (RUN_ORDER_RECHECK_MS): BullMQ says it is not delayed.
      await new (bullmq().Job)(seller, 'chunk', {} as ChunkJobData, {}, id).promote().catch(() => undefined);
    }
  } finally {
    if (seller !== queue) await seller.close();
  }
}

/**
 * A process's side of the order: the runs it found first in line (a run that is first stays so,
 * since no chunk of an earlier run is queued after its last one ended), and the put-back.
 */
export class RunOrder {
  /** Runs whose chunks may begin here without a look (oldest first, a bounded number). */
  private readonly inTurn = new Set<string>();

  constructor(private readonly deps: RunOrderDeps & { logger: Logger }) {}

  /**
   * Returns when the chunk may begin; else puts it back among the delayed jobs until the earlier run
   * ends, and throws BullMQ's DelayedError (the job is not failed, no attempt spent).
   */
  async awaitTurn(
    queue: Queue<ChunkJobData>,
    job: Job<ChunkJobData>,
    token: string | undefined,
    run: { id: string; sellerRef: string; ownQueue?: boolean },
  ): Promise<void> {
    // A run in a queue of its own (a dry run) has no other run's chunk to pass.
    if (run.ownQueue || isApprovalChunk(job.data) || this.inTurn.has(run.id)) return;
    const earlier = await earlierRunOf(this.deps, run.sellerRef, run.id, String(job.id));
    if (earlier === null) {
      remember(this.inTurn, run.id);
      return;
    }
    sayWait(this.deps.logger, run, earlier);
    await job.moveToDelayed(this.deps.now() + RUN_ORDER_RECHECK_MS, token);
    // The earlier run may have ended between the look and the move: then nobody else wakes it.
    await wakeNextRun(this.deps, run.sellerRef, queue);
    throw new (bullmq().DelayedError)();
  }
}

/** The runs whose wait each log said: the process that queued the run said it as it began (enqueue-run.ts). */
const waitsSaid = new WeakMap<Logger, Set<string>>();

/**
 * Logs that `run` waits for the seller's earlier run `earlier`, once a log: when the wait begins, in
 * the log of the process that queues the run (a `run` then writes the earlier run's rows first), and
 * in a worker's, at its first chunk of the run that waits.
 */
export function sayWait(logger: Logger, run: { id: string; sellerRef: string }, earlier: string): void {
  let said = waitsSaid.get(logger);
  if (!said) {
    said = new Set();
    waitsSaid.set(logger, said);
  }
  if (said.has(run.id)) return;
  remember(said, run.id);
  logger.info(
    { run: run.id, seller: run.sellerRef, after: earlier },
    `run ${run.id} waits for run ${earlier} of the same seller to end`,
  );
}

const REMEMBERED = 10_000;

function remember(set: Set<string>, runId: string): void {
  set.add(runId);
  if (set.size > REMEMBERED) set.delete(set.values().next().value as string);
}
