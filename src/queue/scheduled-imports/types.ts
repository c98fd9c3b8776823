import type { Redis } from 'ioredis';
import { isCluster } from '../../redis/connect-cluster.js';
import { RedisKeys } from '../../runs/keys.js';
/** The BullMQ queue that holds one job scheduler per scheduled job file (README, Scheduled imports). */
export const SCHEDULED_IMPORTS_QUEUE = 'scheduled-imports';

/** The queue's name on this connection: tagged on a cluster (RedisKeys.scheduledImportsQueue). */
export function scheduledImportsQueue(redis: Redis, prefix: string): string {
  return new RedisKeys(prefix, { cluster: isCluster(redis) }).scheduledImportsQueue(SCHEDULED_IMPORTS_QUEUE);
}
export const SCHEDULED_IMPORT_JOB = 'scheduled-import';
/** Schedules fire in UTC, whatever the machine's time zone. */
export const SCHEDULE_TZ = 'UTC';

/**
 * What a fired scheduled job carries: the job's name only, never its options (an edit of the job
 * file takes effect at the next firing) and never a folder: Redis is not trusted, so a worker reads
 * job files from its own folder (`worker --jobs DIR`) only.
 */
export interface ScheduledImportData {
  job: string;
}

/** A job's name (its file's name without extension): no path, no control character, nothing to escape. */
export const JOB_NAME = /^[A-Za-z0-9._-]+$/;

export function isJobName(name: unknown): name is string {
  return typeof name === 'string' && JOB_NAME.test(name);
}

/** The scheduler a job file asks for. */
export interface WantedSchedule {
  id: string;
  pattern: string;
  tz: string;
  data: ScheduledImportData;
}

/** A scheduler as found in Redis; any field may be missing from one written by someone else. */
export interface RegisteredSchedule {
  id: string;
  pattern: string | null;
  tz: string | null;
  data: ScheduledImportData | null;
  /** Next firing, ms since epoch. */
  next: number | null;
}

export type ScheduleChange =
  | { kind: 'added' | 'updated' | 'unchanged'; schedule: WantedSchedule }
  | { kind: 'removed'; schedule: RegisteredSchedule };

/** `job:nightly` for `jobs/nightly.yml`. */
export function schedulerId(job: string): string {
  return `job:${job}`;
}

export function wantedSchedule(job: string, pattern: string): WantedSchedule {
  return { id: schedulerId(job), pattern: pattern.trim(), tz: SCHEDULE_TZ, data: { job } };
}
