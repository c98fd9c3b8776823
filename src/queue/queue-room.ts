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
    private readonly queue: Queue<ChunkJobData>,
    readonly highWater: number,
  ) {}

  /** Jobs waiting, or null when they are surely fewer than the mark. */
  async waiting(): Promise<number | null> {
    if (this.bound < this.highWater) return null;
    const waiting = await this.queue.getJobCountByTypes('wait', 'prioritized', 'delayed');
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
