import type { ConnectionOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { bullmq } from '../cjs-packages.js';
import { runIdOfChunkJob } from '../runs/chunk-job.js';
import { queueOptions } from './queue-options.js';

/**
 * The chunks of a seller's queue that wait in BullMQ's delayed set: those a worker put off because it
 * held no usable key for their run (chunk-processor.ts, KEY_UNAVAILABLE_RETRY_MS: a key the API
 * rejected, unset, or not allowed here), and the few a failed attempt backs off. Put off for a
 * minute, they would wait out that minute after the key was fixed: `resume` and a worker whose
 * keys file changed take them out at once.
 */

/** Every delayed chunk of the queue made waiting now (a chunk still without a key is put off again). */
export async function promoteDelayedChunks(
  connection: ConnectionOptions,
  prefix: string,
  queueName: string,
): Promise<void> {
  const queue = new (bullmq().Queue)(queueName, queueOptions(connection, prefix));
  queue.on('error', () => undefined);
  try {
    await queue.promoteJobs();
  } finally {
    await queue.close();
  }
}

/** The run's delayed chunks in its seller's queue: how many, and when the first is due (ms). */
export async function delayedChunksOf(
  redis: Redis,
  prefix: string,
  queueName: string,
  runId: string,
): Promise<{ count: number; firstDueAt: number } | null> {
  // BullMQ's delayed set: job ids scored by due time × 0x1000 (its getDelayedScore).
  const entries = await redis.zrange(`${prefix}:${queueName}:delayed`, 0, -1, 'WITHSCORES');
  let count = 0;
  let firstDueAt = Number.POSITIVE_INFINITY;
  for (let i = 0; i + 1 < entries.length; i += 2) {
    if (runIdOfChunkJob(entries[i] as string) !== runId) continue;
    count++;
    firstDueAt = Math.min(firstDueAt, Math.floor(Number(entries[i + 1]) / 0x1000));
  }
  return count > 0 ? { count, firstDueAt } : null;
}
