import { readdir, readFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import type { Command } from 'commander';
import {
  InvalidCronError,
  isJobName,
  nextRunOf,
  planSchedules,
  type ScheduleChange,
  ScheduleRegistry,
  type WantedSchedule,
  wantedSchedule,
} from '../../queue/scheduled-imports/index.js';
import { terminalSafe } from '../../terminal-safe.js';
import { parseJob } from '../job-file.js';
import { checkJobsFolder } from '../jobs-folder.js';
import type { CliIo } from '../program.js';
import { withRuntime } from '../runtime.js';
import { JOB_FILE_EXTENSIONS } from '../scheduled-import.js';
import { displaySource } from '../source-identity.js';
import { UsageError } from '../usage-error.js';

interface ScheduleFlags {
  jobs: string;
  dryRun: boolean;
  redisUrl?: string;
}

/** A job file of the folder, read and checked. */
interface ScheduledJobFile {
  schedule: WantedSchedule;
  /** As shown to the user: a feed URL without its query (a token must not be printed). */
  source: string;
}

export function registerSchedule(program: Command, io: CliIo): void {
  program
    .command('schedule')
    .description(
      'register the scheduled imports of jobs/ with the workers, list them, drop stale ones (cron in UTC)',
    )
    .option(
      '--jobs <dir>',
      'the folder of job files (NAME.yml, .yaml or .json); workers read their own (worker --jobs)',
      'jobs',
    )
    .option('--dry-run', 'print what would change, change nothing', false)
    .option('--redis-url <url>', 'the Redis of queues and runs (overrides REDIS_URL and REDIS_CLUSTER)')
    .action(async (flags: ScheduleFlags, command: Command) => {
      // Reading no folder must never mean "no job is scheduled": that would drop every scheduler.
      const jobsDir = await checkJobsFolder(flags.jobs, command.getOptionValueSource('jobs') === 'cli');
      // Every file is checked before anything changes: one bad file leaves the schedule as it was.
      const { scheduled, unscheduled } = await readJobFolder(jobsDir);
      await withRuntime(io, flags.redisUrl ? { redisUrl: flags.redisUrl } : {}, async (runtime) => {
        const registry = new ScheduleRegistry(runtime.redis, runtime.config.prefix, runtime.logger);
        try {
          const changes = planSchedules(
            scheduled.map((job) => job.schedule),
            await registry.registered(),
          );
          if (!flags.dryRun) await registry.apply(changes);
          const sources = new Map(scheduled.map((job) => [job.schedule.id, job.source]));
          // Job files and the schedulers found in Redis are quoted: shown, never obeyed by the terminal.
          io.stdout.write(terminalSafe(formatSchedule(changes, sources, Date.now(), flags.dryRun)));
          if (unscheduled.length > 0) {
            io.stdout.write(terminalSafe(`not scheduled (no schedule:): ${unscheduled.join(', ')}\n`));
          }
          if (flags.dryRun) io.stdout.write('(dry run: nothing was changed)\n');
        } finally {
          await registry.close();
        }
      });
    });
}

async function readJobFolder(
  jobsDir: string,
): Promise<{ scheduled: ScheduledJobFile[]; unscheduled: string[] }> {
  let entries: string[];
  try {
    entries = await readdir(jobsDir);
  } catch (error) {
    // Checked just before: only a folder that went, or that may not be read, ends here.
    throw new UsageError(`${jobsDir}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const files = entries.filter((entry) => JOB_FILE_EXTENSIONS.includes(extname(entry))).sort();
  const scheduled: ScheduledJobFile[] = [];
  const unscheduled: string[] = [];
  const fileOfJob = new Map<string, string>();
  for (const file of files) {
    const name = basename(file, extname(file));
    const earlier = fileOfJob.get(name);
    if (earlier) throw new UsageError(`${file}: job ${name} is also defined by ${earlier}; keep one`);
    fileOfJob.set(name, file);
    const job = parseJob(await readFile(join(jobsDir, file), 'utf8'), file);
    if (job.schedule === undefined) {
      unscheduled.push(file);
      continue;
    }
    try {
      nextRunOf(job.schedule, Date.now());
    } catch (error) {
      if (error instanceof InvalidCronError) throw new UsageError(`${file}: schedule: ${error.message}`);
      throw error;
    }
    if (job.source === '-') {
      throw new UsageError(`${file}: source: a scheduled import cannot read standard input (-)`);
    }
    if (!isJobName(name)) {
      throw new UsageError(
        `${file}: a scheduled job's name (its file name) may hold letters, digits, . _ and - only: rename the file`,
      );
    }
    scheduled.push({
      schedule: wantedSchedule(name, job.schedule),
      source: displaySource(job.source),
    });
  }
  return { scheduled, unscheduled };
}

const CHANGE_WORDS = {
  done: { added: 'added', updated: 'updated', unchanged: 'unchanged', removed: 'removed' },
  dryRun: { added: 'to add', updated: 'to update', unchanged: 'unchanged', removed: 'to remove' },
} as const;

/** The table `schedule` prints: one line per scheduler, wanted ones first, then the stale ones. */
export function formatSchedule(
  changes: ScheduleChange[],
  sources: Map<string, string>,
  now: number,
  dryRun: boolean,
): string {
  if (changes.length === 0) return 'no scheduled imports\n';
  const words = dryRun ? CHANGE_WORDS.dryRun : CHANGE_WORDS.done;
  const lines = [
    ['job', 'cron (UTC)', 'next run', 'source', 'change'],
    ...changes.map((change) => {
      const { schedule } = change;
      const job = schedule.data?.job ?? schedule.id.replace(/^job:/, '');
      const pattern = schedule.pattern ?? '-';
      if (change.kind === 'removed') return [job, pattern, '-', '-', words.removed];
      const next = new Date(nextRunOf(change.schedule.pattern, now)).toISOString().replace('.000Z', 'Z');
      return [job, pattern, next, sources.get(schedule.id) ?? '-', words[change.kind]];
    }),
  ];
  const widths = lines[0]!.map((_, column) => Math.max(...lines.map((line) => line[column]!.length)));
  const table = lines.map((line) =>
    line.map((cell, column) => (column === line.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  '),
  );
  return `${table.join('\n')}\n`;
}
