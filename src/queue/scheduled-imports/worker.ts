import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { bullmq } from '../../cjs-packages.js';
import type { Logger } from '../../logger.js';
import type { RedisHealth } from '../../redis/health.js';
import { quoteForMessage } from '../../terminal-safe.js';
import { throttledErrorLog } from '../quiet-errors.js';
import { isJobName, JOB_NAME, type ScheduledImportData, scheduledImportsQueue } from './types.js';

/** What became of one firing; a failure is thrown instead. */
export type ScheduledImportOutcome =
  | { kind: 'queued'; runId: string }
  | { kind: 'already-queued'; runId: string }
  | { kind: 'skipped'; reason: string };

/**
 * Builds and queues the run of a fired scheduled job. Given by the CLI, which knows how a job file
 * becomes a run (`import --job`); the queue layer only fires it.
 */
export type RunScheduledImport = (data: ScheduledImportData) => Promise<ScheduledImportOutcome>;

export interface ScheduledImportsWorkerDeps {
  redis: Redis;
  prefix: string;
  logger: Logger;
  runImport: RunScheduledImport;
  /**
   * The process's view of Redis' faults: while Redis refuses writes (full, read-only) that one fault
   * is said by the command, not again by this queue.
   */
  health?: Pick<RedisHealth, 'note' | 'fault'>;
}

/**
 * Serves the `scheduled-imports` queue. A firing that fails (source unreadable, key variable unset)
 * is logged as one line naming the job and fails in BullMQ; the scheduler fires again at its next
 * time and the worker goes on.
 */
export function serveScheduledImports(deps: ScheduledImportsWorkerDeps): Worker<ScheduledImportData> {
  const name = scheduledImportsQueue(deps.redis, deps.prefix);
  const worker = new (bullmq().Worker)<ScheduledImportData>(
    name,
    async (job) => {
      const name: unknown = job.data?.job;
      // What Redis holds is not trusted: a name that could leave the jobs folder is never looked up.
      if (!isJobName(name)) {
        const shown = typeof name === 'string' ? `"${quoteForMessage(name, 80)}"` : `(${typeof name})`;
        const message = `scheduled import refused: the job name ${shown} does not match ${JOB_NAME}`;
        deps.logger.error({ scheduler: quoteForMessage(job.repeatJobKey ?? '', 80) }, message);
        throw new Error(message);
      }
      try {
        const outcome = await deps.runImport({ job: name });
        if (outcome.kind === 'skipped') {
          deps.logger.warn({ job: name }, `scheduled import ${name} skipped: ${outcome.reason}`);
        } else {
          deps.logger.info(
            { job: name, run: outcome.runId },
            outcome.kind === 'queued'
              ? `scheduled import ${name} queued as run ${outcome.runId}`
              : `scheduled import ${name}: its source is still queued as run ${outcome.runId}; not queued again`,
          );
        }
        return outcome;
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        deps.logger.error({ job: name }, `scheduled import ${name} failed: ${reason.split('\n')[0]}`);
        throw error;
      }
    },
    { connection: deps.redis, prefix: deps.prefix, concurrency: 1 },
  );
  const throttled = throttledErrorLog(deps.logger, `queue ${name}`);
  worker.on('error', (error: Error) => {
    if (deps.health?.note(error) || deps.health?.fault) return;
    throttled(error);
  });
  return worker;
}
