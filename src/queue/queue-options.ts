import type { ConnectionOptions, QueueOptions } from 'bullmq';
import { EVENTS_KEPT } from '../defaults.js';

/**
 * The options of every Queue opened on a queue of catalog-sync: each Queue instance writes the
 * stream's length into the queue's meta when it starts, so one opened without it would put back
 * BullMQ's default.
 */
export function queueOptions(connection: ConnectionOptions, prefix: string): QueueOptions {
  return { connection, prefix, streams: { events: { maxLen: EVENTS_KEPT } } };
}
