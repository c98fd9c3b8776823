import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { bullmq } from '../../cjs-packages.js';
import { KEEP_FIRED_JOBS } from '../../defaults.js';
import type { Logger } from '../../logger.js';
import { queueOptions } from '../queue-options.js';
import { throttledErrorLog } from '../quiet-errors.js';
import {
  type RegisteredSchedule,
  SCHEDULED_IMPORT_JOB,
  type ScheduleChange,
  type ScheduledImportData,
  scheduledImportsQueue,
} from './types.js';

/** The job schedulers of the `scheduled-imports` queue: read them, and apply a plan to them. */
export class ScheduleRegistry {
  private readonly queue: Queue<ScheduledImportData>;

  constructor(connection: Redis, prefix: string, logger: Logger) {
    const name = scheduledImportsQueue(connection, prefix);
    this.queue = new (bullmq().Queue)<ScheduledImportData>(name, queueOptions(connection, prefix));
    this.queue.on('error', throttledErrorLog(logger, `queue ${name}`));
  }

  async registered(): Promise<RegisteredSchedule[]> {
    const schedulers = await this.queue.getJobSchedulers(0, -1, true);
    return schedulers.map((scheduler) => ({
      id: scheduler.key,
      pattern: scheduler.pattern ?? null,
      tz: scheduler.tz ?? null,
      data: isImportData(scheduler.template?.data) ? scheduler.template.data : null,
      next: scheduler.next ?? null,
    }));
  }

  async apply(changes: ScheduleChange[]): Promise<void> {
    for (const change of changes) {
      if (change.kind === 'unchanged') continue;
      if (change.kind === 'removed') {
        await this.queue.removeJobScheduler(change.schedule.id);
        continue;
      }
      const { id, pattern, tz, data } = change.schedule;
      await this.queue.upsertJobScheduler(
        id,
        { pattern, tz },
        {
          name: SCHEDULED_IMPORT_JOB,
          data,
          opts: { removeOnComplete: KEEP_FIRED_JOBS, removeOnFail: KEEP_FIRED_JOBS },
        },
      );
    }
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}

/** Data whose `job` is a string; it may carry more (an older version's `jobsDir`), which `schedule` then rewrites. */
function isImportData(data: unknown): data is ScheduledImportData {
  const candidate = data as Partial<ScheduledImportData> | null | undefined;
  return typeof candidate?.job === 'string';
}
