import type { ConnectionOptions, QueueOptions } from 'bullmq';

/**
 * Events BullMQ keeps in each queue's event stream. Its default, 10,000, costs about 0.5 MB of Redis
 * per seller queue whatever the catalog's size (issue 12: a few hundred sellers would hold more in
 * events than in their id maps), and nothing of catalog-sync reads the stream (no QueueEvents: `run`
 * and the dashboard read the run records and the job counts).
 */
export const EVENTS_KEPT = 100;

/**
 * The options of every Queue opened on a queue of catalog-sync: each Queue instance writes the
 * stream's length into the queue's meta when it starts, so one opened without it would put back
 * BullMQ's default.
 */
export function queueOptions(connection: ConnectionOptions, prefix: string): QueueOptions {
  return { connection, prefix, streams: { events: { maxLen: EVENTS_KEPT } } };
}
