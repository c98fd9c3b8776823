import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { bullmq } from '../cjs-packages.js';
import { queueOptions } from '../queue/queue-options.js';
import type { QueueCounts } from './views.js';

/**
 * Counts the jobs of sellers' queues. One BullMQ `Queue` per seller queue, opened on first use and
 * kept while the dashboard runs (it refreshes every 2 s); `close` lets them all go.
 */
export class QueueCounter {
  private readonly queues = new Map<string, Queue>();

  constructor(
    private readonly connection: Redis,
    private readonly prefix: string,
  ) {}

  async counts(queueName: string): Promise<QueueCounts> {
    let queue = this.queues.get(queueName);
    if (!queue) {
      queue = new (bullmq().Queue)(queueName, queueOptions(this.connection, this.prefix));
      this.queues.set(queueName, queue);
    }
    // A paused queue's jobs wait in 'wait' (BullMQ 6); prioritized jobs are waiting too.
    const raw = await queue.getJobCounts('wait', 'prioritized', 'active', 'delayed', 'failed');
    return {
      waiting: (raw.wait ?? 0) + (raw.prioritized ?? 0),
      active: raw.active ?? 0,
      delayed: raw.delayed ?? 0,
      failed: raw.failed ?? 0,
    };
  }

  async close(): Promise<void> {
    const queues = [...this.queues.values()];
    this.queues.clear();
    await Promise.all(queues.map((queue) => queue.close()));
  }
}
