import { lstat, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import type { Command } from 'commander';
import { HARD_LINKED, hasOtherLinks } from '../sole-link.js';
import { isStoreSource } from '../sources/stores/store-url.js';
import { quoteForMessage } from '../terminal-safe.js';
import { UsageError } from './usage-error.js';

/**
 * A job file is not trusted like the command line: the paths it names (`source`, `mapping`,
 * `report`) must stay inside the folders the operator chose for it, so that a job file cannot read
 * the keys file (and publish it through the report, Redis or an error line) nor write over any file
 * the operator can write.
 */

/** The environment's form of `--data-dir`. */
export const DATA_DIR_VARIABLE = 'CATALOG_SYNC_DATA_DIR';

/** Where a job file's paths may lead: both folders as the file system names them (symbolic links resolved). */
export interface JobFolders {
  /** The folder that holds `jobs/` (the job file's own project), else the job file's own folder. */
  project: string;
  /** `--data-dir` (else CATALOG_SYNC_DATA_DIR): a further folder the operator allows; none by default. */
  data: string | null;
}

/** The folders of the job file at `jobPath`; `dataDir` is `--data-dir`'s value, which wins over `env`'s. */
export async function jobFolders(
  jobPath: string,
  dataDir: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<JobFolders> {
  const fromEnv = env[DATA_DIR_VARIABLE]?.trim();
  const named = dataDir ?? (fromEnv ? fromEnv : undefined);
  const shown = dataDir !== undefined ? `--data-dir ${dataDir}` : `${DATA_DIR_VARIABLE}=${fromEnv}`;
  // A job file kept outside `jobs/` (`--job ./x.yml`, `worker --jobs /etc/catalog-sync`) has only
  // its own folder; its relative paths are resolved from there too (localPath).
  return {
    project: await realpath(projectFolder(jobPath)),
    data: named === undefined ? null : await existingFolder(named, shown),
  };
}

async function existingFolder(folder: string, shown: string): Promise<string> {
  try {
    const real = await realpath(folder);
    if ((await stat(real)).isDirectory()) return real;
  } catch {}
  throw new UsageError(`${shown}: no such folder`);
}

/**
 * Refuses, in one line naming the job file and its field, a path that leads outside `folders`
 * (through `..` or a symbolic link), or to a file its owner alone may read (mode 600 or the like:
 * the keys file is always one). A `write` path must also not be a symbolic link itself: the file is
 * later opened without following one (writeToFile's `noFollow`). A `read` path is judged here by
 * name, early, and again on the descriptor it is read from (job-file-open.ts): a link swapped
 * meanwhile is caught there.
 */
export async function checkJobPath(
  path: string,
  asWritten: string,
  where: string,
  folders: JobFolders,
  use: 'read' | 'write',
): Promise<void> {
  const shown = `${where}: ${quoteForMessage(asWritten)}`;
  const real = await realOrPlanned(resolve(path));
  if (real === null) throw new UsageError(outsideLine(shown, folders));
  const target = await stat(real).catch(() => null);
  if (use === 'read') {
    refuseJobRead(real, target, shown, folders);
    return;
  }
  if (!inFolders(real, folders)) throw new UsageError(outsideLine(shown, folders));
  const link = await lstat(path).catch(() => null);
  if (link?.isSymbolicLink()) {
    throw new UsageError(`${shown} is a symbolic link: a job file's report is written only to a plain file`);
  }
  checkReportName(real, shown, folders, target);
  if (target !== null && isPrivate(target)) throw new UsageError(privateLine(shown, target));
  if (target !== null && hasOtherLinks(target)) throw new UsageError(hardLinkLine(shown));
}

/**
 * What a job file may read, judged on where the file really is (`real`, links resolved) and what it
 * is (`info`, null when not there yet: the open says so): inside the job's folders, not hidden, a
 * plain file (a FIFO would hang the read, a device never ends), not private.
 */
export function refuseJobRead(
  real: string,
  info: { isFile(): boolean; mode: number; nlink: number } | null,
  shown: string,
  folders: JobFolders,
): void {
  if (!inFolders(real, folders)) throw new UsageError(outsideLine(shown, folders));
  if (hiddenBelow(real, folders))
    throw new UsageError(
      `${shown} is a hidden file or in a hidden folder (.env, .git/…): a job file never reads one; give it on the command line instead`,
    );
  if (info === null) return;
  if (!info.isFile())
    throw new UsageError(
      `${shown} is not a plain file (a FIFO, a device or a folder): a job file reads only a plain file; give it on the command line instead`,
    );
  if (isPrivate(info)) throw new UsageError(privateLine(shown, info));
  // Judged again on the descriptor it is read from (job-file-open.ts): a link made meanwhile too.
  if (hasOtherLinks(info)) throw new UsageError(hardLinkLine(shown));
}

/** `nightly.yml: source: x.csv has other hard links: …`: a hard link carries no folder (sole-link.ts). */
function hardLinkLine(shown: string): string {
  return `${shown} ${HARD_LINKED.replace(/^it /, '')}; give it on the command line instead`;
}

function inFolders(real: string, folders: JobFolders): boolean {
  return isInside(real, folders.project) || (folders.data !== null && isInside(real, folders.data));
}

function outsideLine(shown: string, folders: JobFolders): string {
  const data = folders.data === null ? '' : ` and ${folders.data}`;
  return (
    `${shown} leads outside the job's folders (${folders.project}${data}): a job file reads and writes only there ` +
    `(--data-dir DIR or ${DATA_DIR_VARIABLE} names another)`
  );
}

/** Its owner alone may read it (mode 600, 400 and the like): the keys file is always one. */
function isPrivate(info: { isFile(): boolean; mode: number }): boolean {
  return info.isFile() && (info.mode & 0o044) === 0;
}

function privateLine(shown: string, info: { mode: number }): string {
  return (
    `${shown} is a private file (mode ${(info.mode & 0o777).toString(8)}, a keys file is one): ` +
    'a job file never names one; give it on the command line instead'
  );
}

/**
 * A report a job file names is a CSV file of its own: never a hidden file or one in a hidden folder
 * (`.bashrc`, `.git/hooks/…`, `.ci/run`), never a file that can be run (its lines could run as
 * commands: a SKU of `$(…)`), never anything but `….csv`.
 */
function checkReportName(
  real: string,
  shown: string,
  folders: JobFolders,
  existing: { isFile(): boolean; mode: number } | null,
): void {
  const refuse = (why: string) => {
    throw new UsageError(
      `${shown} ${why}: a job file's report is a .csv file of its own (or give --report FILE)`,
    );
  };
  if (hiddenBelow(real, folders)) refuse('is a hidden file or in a hidden folder');
  if (!/\.csv$/i.test(real)) refuse('does not end in .csv');
  if (existing !== null && (!existing.isFile() || (existing.mode & 0o111) !== 0))
    refuse(existing.isFile() ? 'is a file that can be run' : 'is not a plain file');
}

/** `real` is, or lies in, a hidden file or folder below the job's folder that holds it. */
function hiddenBelow(real: string, folders: JobFolders): boolean {
  const base = [folders.project, folders.data].find(
    (folder): folder is string => folder !== null && isInside(real, folder),
  );
  const below = base === undefined ? [] : real.slice(base.length).split(sep).filter(Boolean);
  return below.some((name) => name.startsWith('.'));
}

/** Where a report a job file names may be opened: its folders (writeToFile's `within`). */
export function reportFolders(folders: JobFolders): string[] {
  return folders.data === null ? [folders.project] : [folders.project, folders.data];
}

/** `child` is `folder` or lies under it. */
export function isInside(child: string, folder: string): boolean {
  return child === folder || child.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

/**
 * The path as the file system would reach it: symbolic links resolved. A path not there yet (a
 * report to be written) is its nearest existing folder, resolved, plus the names still to be made.
 */
async function realOrPlanned(path: string): Promise<string | null> {
  const missing: string[] = [];
  let at = path;
  for (;;) {
    try {
      return join(await realpath(at), ...missing.reverse());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const parent = dirname(at);
      // A dangling link or a loop is not "not there yet": where it leads cannot be known (null).
      if (code !== 'ENOENT' || parent === at || (await lstat(at).catch(() => null)) !== null) return null;
      missing.push(basename(at));
      at = parent;
    }
  }
}

/** The fields of a job file (job-file.ts) that name paths. */
export interface JobPathFields {
  source: string;
  mapping?: string | undefined;
  report?: string | undefined;
}

/** A file a job file names for reading, as its messages name it, and the folders it must lie in. */
export interface JobRead {
  /** `nightly.yml: source: x.csv`. */
  shown: string;
  folders: JobFolders;
}

/** The job's own source and mapping (those the command line did not override): checked again as opened. */
export interface JobReads {
  source?: JobRead;
  mapping?: JobRead;
}

/**
 * The job's own paths (those the command line did not override) must stay inside the job's folders
 * (checkJobPath). `sourceFromJob`: the run reads the job's `source`, not one given on the command line.
 * Returns the folders, and the reads to check again on the descriptor they are read from.
 */
export async function checkJobPaths(
  command: Command,
  job: JobPathFields,
  jobPath: string,
  // The run's options as far as they name paths (RunFlags, which names this module's types).
  flags: { dataDir?: string | undefined; mapping?: string | undefined; report?: string | undefined },
  sourceFromJob: boolean,
  env: NodeJS.ProcessEnv,
): Promise<{ folders: JobFolders; reads: JobReads }> {
  const fromCli = (name: string) => command.getOptionValueSource(name) === 'cli';
  const folders = await jobFolders(jobPath, flags.dataDir, env);
  const where = (field: string) => `${basename(jobPath)}: ${field}`;
  const reads: JobReads = {};
  if (sourceFromJob && isLocalPath(job.source)) {
    await checkJobPath(localPath(jobPath, job.source), job.source, where('source'), folders, 'read');
    reads.source = { shown: `${where('source')}: ${quoteForMessage(job.source)}`, folders };
  }
  if (job.mapping !== undefined && !fromCli('mapping') && flags.mapping) {
    await checkJobPath(flags.mapping, job.mapping, where('mapping'), folders, 'read');
    reads.mapping = { shown: `${where('mapping')}: ${quoteForMessage(job.mapping)}`, folders };
  }
  if (job.report !== undefined && !fromCli('report') && flags.report) {
    await checkJobPath(flags.report, job.report, where('report'), folders, 'write');
  }
  return { folders, reads };
}

/** A file's path, not standard input (`-`) nor a feed's URL. */
export function isLocalPath(source: string): boolean {
  return source !== '-' && !/^https?:\/\//i.test(source) && !isStoreSource(source);
}

/**
 * A job's path, relative to its project folder (cron's working folder does not matter): the folder
 * that holds `jobs/`, or for a job file kept in any other folder, that folder (jobFolders' project).
 */
export function localPath(jobPath: string, path: string): string {
  return isAbsolute(path) ? path : resolve(projectFolder(jobPath), path);
}

/** The folder that holds `jobs/`, else the job file's own folder: its grandparent could be /home or /. */
function projectFolder(jobPath: string): string {
  const folder = dirname(resolve(jobPath));
  return basename(folder) === 'jobs' ? dirname(folder) : folder;
}
