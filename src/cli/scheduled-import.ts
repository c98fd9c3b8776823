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

/**
 * A fired scheduled job becomes a run exactly as `catalog-sync import --job NAME` makes one: the job
 * file read anew from this worker's own `jobsDir` (never a folder read from Redis), the same option
 * defaults and checks, the key read from this process's `keyEnv` variable.
 */
export function makeScheduledImport(
  io: CliIo,
  runtime: Runtime,
  jobsDir: string,
  dataDir?: string,
): RunScheduledImport {
  return async (data) => importScheduledJob(io, runtime, data, jobsDir, dataDir);
}

async function importScheduledJob(
  io: CliIo,
  runtime: Runtime,
  data: ScheduledImportData,
  jobsDir: string,
  dataDir: string | undefined,
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
  await checkJobNotify(command, job, path, flags, io.env);
  // Held to this worker's own environment (CATALOG_SYNC_STORE_HOSTS), as `import --job` is to its.
  checkJobStoreSource(source, path, io.env);
  // Nothing may reach a scheduled import on this process's standard input.
  const input = new PassThrough();
  input.end();
  const prepared = await prepareRun({ ...io, stdin: input }, source, flags, runtime.registry);
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
