import type { Queue } from 'bullmq';
import type { ChunkJobData } from '../runs/chunk-job.js';

/**
 * How many jobs wait in the seller's queue, looked up only when it may have reached the mark: the
 * count can only fall between looks (workers take jobs) except by what this producer adds, so
 * `last look + added since` below the mark needs no look (one round trip saved per chunk).
 */
export class QueueRoom {
  private bound = Number.POSITIVE_INFINITY;

  constructor(
    queue: Queue<ChunkJobData>,
    readonly highWater: number,
    /**
     * The jobs that count, when not all of the queue's waiting ones do: in a seller's queue, those
     * that go before this run's chunks (run-order.ts `waitingAhead`).
     */
    private readonly count: () => Promise<number> = () =>
      queue.getJobCountByTypes('wait', 'prioritized', 'delayed'),
  ) {}

  /** Jobs waiting, or null when they are surely fewer than the mark. */
  async waiting(): Promise<number | null> {
    if (this.bound < this.highWater) return null;
    const waiting = await this.count();
    this.bound = waiting;
    return waiting;
  }

  added(): void {
    this.bound++;
  }

  /** Whether `more` chunks added could bring the queue to the mark (or it is unknown yet). */
  nearMark(more: number): boolean {
    return this.bound + more >= this.highWater;
  }
}
