import { access } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { commander } from '../cjs-packages.js';
import { enqueueRun } from '../queue/enqueue-run.js';
import {
  isJobName,
  type RunScheduledImport,
  type ScheduledImportData,
  type ScheduledImportOutcome,
} from '../queue/scheduled-imports/index.js';
import { redactUrl } from '../sources/url-source.js';
import { applyJob, checkJobNotify, loadJob } from './job-file.js';
import { checkJobPaths } from './job-paths.js';
import { checkJobStoreSource } from './job-store-source.js';
import { asUsageError, prepareRun } from './prepare-run.js';
import type { CliIo } from './program.js';
import type { RunFlags } from './run-flags.js';
import { addRunOptions } from './run-options.js';
import type { Runtime } from './runtime.js';
import { UsageError } from './usage-error.js';

export const JOB_FILE_EXTENSIONS = ['.yml', '.yaml', '.json'];

/** What the worker's own command line says of its scheduled imports. */
export interface ScheduledImportOptions {
  /** `worker --jobs`: the only folder job files are read from. */
  jobsDir: string;
  /** `worker --data-dir`: a folder the job files' paths may name besides their project folder. */
  dataDir?: string;
  /** `worker --allow-private-source`: a job's feed or webhook may lead to loopback or a private network. */
  allowPrivateSource: boolean;
}

/**
 * A fired scheduled job becomes a run exactly as `catalog-sync import --job NAME` makes one: the job
 * file read anew from this worker's own `jobsDir` (never a folder read from Redis), the same option
 * defaults and checks, the key read from this process's `keyEnv` variable, and the address policy
 * of a job file's feed and webhook, lifted only by this worker's own `--allow-private-source`.
 */
export function makeScheduledImport(
  io: CliIo,
  runtime: Runtime,
  options: ScheduledImportOptions,
): RunScheduledImport {
  return async (data) => importScheduledJob(io, runtime, data, options);
}

async function importScheduledJob(
  io: CliIo,
  runtime: Runtime,
  data: ScheduledImportData,
  { jobsDir, dataDir, allowPrivateSource }: ScheduledImportOptions,
): Promise<ScheduledImportOutcome> {
  const { path, job } = await loadJob(await findJobFile(data.job, jobsDir));
  if (!job.schedule) {
    return { kind: 'skipped', reason: 'its job file has no schedule any more (run `catalog-sync schedule`)' };
  }
  if (job.source === '-') {
    throw new UsageError(`${basename(path)}: source: a scheduled import cannot read standard input (-)`);
  }
  const command = addRunOptions(
    new (commander().Command)('import').argument('[source]').exitOverride(),
    'import',
  );
  command.parse([], { from: 'user' });
  const { source, flags } = applyJob(command, command.opts<RunFlags>(), job, path, io.env);
  // The source is the job file's choice, never the command line's: a feed it names on loopback or a
  // private network takes the operator's flag (a job file cannot give one: job-file.ts).
  flags.sourceFromJob = true;
  flags.allowPrivateSource = allowPrivateSource;
  // The worker's --data-dir (else CATALOG_SYNC_DATA_DIR): the job's paths are held to it as `import --job`'s.
  const checked = await checkJobPaths(
    command,
    job,
    path,
    { ...flags, ...(dataDir ? { dataDir } : {}) },
    true,
    io.env,
  );
  flags.jobReads = checked.reads;
  await checkJobNotify(command, job, path, flags, io.env, io.network?.lookup);
  // Held to this worker's own environment (CATALOG_SYNC_STORE_HOSTS), as `import --job` is to its.
  checkJobStoreSource(source, path, io.env);
  // Nothing may reach a scheduled import on this process's standard input.
  const input = new PassThrough();
  input.end();
  const prepared = await prepareRun({ ...io, stdin: input }, source, flags, runtime.registry).catch(
    (error: unknown) => {
      throw namingJobFile(error, source, path);
    },
  );
  try {
    const result = await enqueueRun(
      { ...runtime, prefix: runtime.config.prefix },
      prepared.spec,
      prepared.rows,
      { sourceRows: prepared.sourceRows },
    ).catch((error: unknown) => {
      throw asUsageError(error);
    });
    return result.kind === 'queued'
      ? { kind: 'queued', runId: result.run.id }
      : { kind: 'already-queued', runId: result.runId };
  } finally {
    await prepared.close();
  }
}

/**
 * A line about the job's feed (`http://…/feed.csv: refused: … named by a job file`) names the job
 * file and its key, as the checks of its paths do: the worker's log says which file to fix.
 */
function namingJobFile(error: unknown, source: string, path: string): unknown {
  if (!(error instanceof UsageError) || !/^https?:\/\//i.test(source)) return error;
  if (!error.message.startsWith(`${redactUrl(source)}: `)) return error;
  return new UsageError(`${basename(path)}: source: ${error.message}`, error.exitCode);
}

/** `jobsDir/NAME.yml` (or .yaml, .json), as `schedule` found it; a name that could leave the folder is refused. */
async function findJobFile(job: string, jobsDir: string): Promise<string> {
  if (!isJobName(job)) throw new UsageError('a job name holds letters, digits, . _ - only');
  for (const extension of JOB_FILE_EXTENSIONS) {
    const path = join(jobsDir, job + extension);
    try {
      await access(path);
      return path;
    } catch {}
  }
  // A folder that is not there was never the one `schedule` read (a worker's --jobs elsewhere).
  const folderThere = await access(jobsDir).then(
    () => true,
    () => false,
  );
  throw new UsageError(
    folderThere
      ? `no job file ${job}.yml, .yaml or .json in ${jobsDir} any more`
      : `no folder ${jobsDir}: this worker's --jobs must name the folder \`catalog-sync schedule\` registered ${job} from`,
  );
}
