import type { Queue, Worker } from 'bullmq';
import { RunContexts, type WorkerDeps } from '../chunks/run-context.js';
import { bullmq } from '../cjs-packages.js';
import { DEFAULT_LOCK_MS, MAX_STALLED_COUNT } from '../defaults.js';
import { RunStateLostError } from '../redis/health.js';
import type { ChunkJobData } from '../runs/chunk-job.js';
import { runIdOfChunkJob } from '../runs/chunk-job.js';
import type { SellerInfo } from '../sellers/seller-registry.js';
import { ChunkAttempts } from './chunk-attempts.js';
import { isFinalAttempt, settleFailedChunk } from './chunk-failure.js';
import { makeChunkProcessor } from './chunk-processor.js';
import { queueOptions } from './queue-options.js';
import { LIMITER_MAX } from './queue-readiness.js';
import { throttledErrorLog } from './quiet-errors.js';
import { RunOrder, wakeNextRun } from './run-order.js';

export interface SellerWorkersOptions {
  prefix: string;
  /** Chunks of one seller processed at once by this process; requests stay bounded by the limiter. */
  chunksAtOnce?: number;
  /** How long a job's lock lasts without renewal (renewed every half of it). */
  lockDurationMs?: number;
  /** How often a worker looks for jobs whose lock ran out; default half the lock. */
  stalledIntervalMs?: number;
  /**
   * Tests only: how often the locks are renewed (default half the lock). Longer than the lock, a
   * worker loses its chunks as one whose event loop or Redis was away for a whole lock does.
   */
  lockRenewMs?: number;
}

/**
 * BullMQ's lock options: a killed worker's lock runs out at most `lockDuration` after its last
 * renewal, and the next stall check of a live worker puts its jobs back, so they are taken within
 * lock + check (8 + 4 s by default). A live worker renews every half lock, so only one that cannot
 * reach Redis for a whole lock loses its jobs; the create claims (create-claims.ts) keep a chunk
 * handed out twice from creating a product twice, and handed out again to the same process, its
 * second attempt waits for the first (chunk-attempts.ts).
 */
export function jobLockOptions(
  options: Pick<SellerWorkersOptions, 'lockDurationMs' | 'stalledIntervalMs' | 'lockRenewMs'>,
) {
  const lockDuration = options.lockDurationMs ?? DEFAULT_LOCK_MS;
  return {
    lockDuration,
    lockRenewTime: options.lockRenewMs ?? Math.ceil(lockDuration / 2),
    stalledInterval: options.stalledIntervalMs ?? Math.ceil(lockDuration / 2),
  };
}

/**
 * One BullMQ Worker per served seller queue in this process, all sharing the process's request
 * limiter (docs/architecture.md, decision 1). `run` serves one seller (a dry run: its run's own
 * queue, run-queue.ts); `worker` serves a few at a time, those with work, rotating
 * (seller-rotation.ts: each served queue holds a blocking connection).
 */
export class SellerWorkers {
  private readonly workers = new Map<string, { worker: Worker<ChunkJobData>; queue: Queue<ChunkJobData> }>();
  private readonly contexts: RunContexts;
  private readonly order: RunOrder;
  /** The chunk attempts under way in this process, across its queues: one at a time per chunk. */
  private readonly attempts: ChunkAttempts;
  /** Wakes of the next run under way (wakeNextRun): waited for before a queue closes. */
  private readonly waking = new Set<Promise<void>>();
  private paused = false;
  /** Told when a served queue has no job left to take (BullMQ's `drained`): its slot may serve another. */
  onDrained: ((queueName: string) => void) | null = null;

  constructor(
    private readonly deps: WorkerDeps,
    private readonly options: SellerWorkersOptions,
  ) {
    this.contexts = new RunContexts(deps);
    this.order = new RunOrder(deps);
    this.attempts = new ChunkAttempts(jobLockOptions(options).lockDuration);
  }

  serve(seller: SellerInfo): void {
    if (this.workers.has(seller.queueName)) return;
    const connection = this.deps.queueConnection ?? this.deps.redis;
    const queue = new (bullmq().Queue)<ChunkJobData>(
      seller.queueName,
      queueOptions(connection, this.options.prefix),
    );
    const worker = new (bullmq().Worker)<ChunkJobData>(
      seller.queueName,
      makeChunkProcessor(this.deps, this.contexts, queue, this.order, this.attempts),
      {
        connection,
        prefix: this.options.prefix,
        concurrency: this.options.chunksAtOnce ?? 2,
        ...jobLockOptions(this.options),
        maxStalledCount: MAX_STALLED_COUNT,
        // BullMQ applies a manual rate limit (queue.rateLimit, our daily-limit pause) only when a
        // limiter is set; this one never limits by itself.
        limiter: { max: LIMITER_MAX, duration: 1000 },
      },
    );
    // A chunk of the seller's queue left it: the next run's chunks waiting for an earlier run may go.
    // Kept until done: a `run` closes as soon as its run ended, and its last chunk's wake must land.
    const wake = () => {
      if (seller.queueName !== this.deps.keys.sellerQueue(seller.ref)) return;
      const waking = wakeNextRun(this.deps, seller.ref, queue)
        .catch((error: unknown) =>
          this.deps.logger.debug(
            { queue: seller.queueName, err: String(error) },
            'could not wake the next run',
          ),
        )
        .finally(() => this.waking.delete(waking));
      this.waking.add(waking);
    };
    worker.on('completed', wake);
    worker.on('failed', (job, error) => {
      if (!job) return;
      if (!isFinalAttempt(job)) {
        this.deps.logger.warn(
          { job: job.id, attempt: job.attemptsMade, err: error.message },
          'chunk failed; tried again later',
        );
        return;
      }
      settleFailedChunk(this.deps, job, error, queue)
        .catch((settleError: unknown) =>
          this.deps.logger.error({ job: job.id, err: String(settleError) }, 'could not mark a failed chunk'),
        )
        .finally(wake);
    });
    const throttled = throttledErrorLog(this.deps.logger, `queue ${seller.queueName}`);
    // While Redis refuses writes (full, read-only), BullMQ's own failures to move or lock jobs are
    // that one fault, said once by the command: not one warning per job.
    const warn = (error: Error) => {
      if (this.deps.health?.note(error) || this.deps.health?.fault) return;
      this.lostRunOf(error).then(
        (lost) => {
          if (lost) this.deps.health?.note(lost);
          else throttled(error);
        },
        () => throttled(error),
      );
    };
    worker.on('drained', () => this.onDrained?.(seller.queueName));
    worker.on('error', warn);
    queue.on('error', warn);
    if (this.paused) worker.pause(true).catch(warn);
    this.workers.set(seller.queueName, { worker, queue });
  }

  /**
   * BullMQ's "Missing key for job …" (or lock) about a chunk whose run's record is gone too: Redis
   * lost its data (a restart without persistence, FLUSHALL), said once by the command, not warned.
   */
  private async lostRunOf(error: Error): Promise<RunStateLostError | null> {
    const jobId = /Missing (?:key|lock) for job (\S+?)\.?(?:\s|$)/.exec(error.message)?.[1];
    const runId = jobId ? runIdOfChunkJob(jobId) : null;
    if (!runId || (await this.deps.runs.exists(runId))) return null;
    return new RunStateLostError(runId);
  }

  /** Takes no new job (the ones in progress go on); also for sellers served later, until `resume`. */
  async pause(): Promise<void> {
    this.paused = true;
    await Promise.all([...this.workers.values()].map(({ worker }) => worker.pause(true)));
  }

  /** Takes jobs again after `pause`. */
  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    for (const { worker } of this.workers.values()) worker.resume().catch(() => undefined);
  }

  get size(): number {
    return this.workers.size;
  }

  /** True while this process has a worker on the queue (serve was called and release was not). */
  serves(queueName: string): boolean {
    return this.workers.has(queueName);
  }

  /**
   * Stops serving one seller's queue: its jobs in progress finish first (nothing is lost; the
   * queue's other jobs stay for whichever worker attaches next), and its blocking connection closes.
   */
  async release(queueName: string): Promise<void> {
    const entry = this.workers.get(queueName);
    if (!entry) return;
    this.workers.delete(queueName);
    await entry.worker.close();
    await Promise.all(this.waking);
    await entry.queue.close();
  }

  /** Lets the jobs in progress finish, then stops; nothing is lost (unfinished jobs return to waiting). */
  async close(): Promise<void> {
    await Promise.all([...this.workers.values()].map(({ worker }) => worker.close()));
    await Promise.all(this.waking);
    await Promise.all([...this.workers.values()].map(({ queue }) => queue.close()));
    this.workers.clear();
  }
}
