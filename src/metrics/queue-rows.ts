import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { bullmq } from '../cjs-packages.js';
import { METRICS_JOBS_PAGE } from '../defaults.js';
import { queueOptions } from '../queue/queue-options.js';
import type { ChunkJobData } from '../runs/chunk-job.js';

const STATES = ['waiting', 'active', 'delayed'] as const;

/**
 * Rows in a seller queue's chunks, by state, read at scrape time. A chunk's job data holds its rows;
 * jobs are read a page at a time, so a long queue never sits in memory at once.
 */
export class QueueRows {
  private readonly queues = new Map<string, Queue<ChunkJobData>>();

  constructor(
    private readonly connection: Redis,
    private readonly prefix: string,
  ) {}

  async rows(queueName: string): Promise<Record<string, number>> {
    let queue = this.queues.get(queueName);
    if (!queue) {
      queue = new (bullmq().Queue)<ChunkJobData>(queueName, queueOptions(this.connection, this.prefix));
      queue.on('error', () => undefined);
      this.queues.set(queueName, queue);
    }
    const counts: Record<string, number> = {};
    for (const state of STATES) {
      // A paused queue's jobs wait in 'wait' (BullMQ 6); prioritized jobs are waiting too.
      const types = state === 'waiting' ? (['wait', 'prioritized'] as const) : ([state] as const);
      let rows = 0;
      for (let start = 0; ; start += METRICS_JOBS_PAGE) {
        const jobs = await queue.getJobs([...types], start, start + METRICS_JOBS_PAGE - 1, true);
        for (const job of jobs) rows += job?.data?.rows?.length ?? 0;
        if (jobs.length < METRICS_JOBS_PAGE) break;
      }
      counts[state] = rows;
    }
    return counts;
  }

  async close(): Promise<void> {
    const queues = [...this.queues.values()];
    this.queues.clear();
    await Promise.all(queues.map((queue) => queue.close()));
  }
}
