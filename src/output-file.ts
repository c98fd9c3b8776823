import { randomUUID } from 'node:crypto';
import { constants, createWriteStream, type Stats } from 'node:fs';
import { access, chmod, chown, lstat, mkdir, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { type ConfinedFolder, openFileWithin, openFolderWithin, openSoleFile } from './confined-folder.js';
import { UsageError } from './usage-error.js';

/**
 * The files a command writes when its work is done (`--report`, `report --out`, `products export
 * --out`). Checked before any work (output-check.ts): a nightly run must not send its writes and
 * then die on a path it could never write, with a stack trace in the cron mail and the report lost.
 */

/**
 * Creates the file (and its missing folders), lets `write` fill it, and resolves once it is on disk.
 * A regular file is replaced whole at the end, never left cut (see `replaceable`). The file's own failure (a full disk, a folder removed meanwhile) is one line naming it
 * (OutputFileError), at once, even while `write` waits for the stream to drain; `write`'s own
 * failures (Redis, the API) are its own. Folders are made one at a time: `mkdir` with `recursive`
 * never settles under /proc (Node 20).
 */
export interface WriteOptions {
  /** A path a job file chose: a symbolic link put there since it was checked is not followed. */
  noFollow?: boolean;
  /**
   * And the file must lie in one of these folders (real paths): a folder on the way swapped for a
   * link since the check does not lead the write, a folder it makes or its rename out. Linux: its
   * folder is held open (confined-folder.ts); elsewhere the open file is checked before a byte of
   * it is changed.
   */
  within?: readonly string[];
  /**
   * A job file chose it (set with `within`): a file with other hard links is refused, never written
   * in place, judged on the opened file before a byte of it is changed (sole-link.ts).
   */
  soleLink?: boolean;
  /**
   * What was at the path when it was checked, before the run (output-check.ts): `changed` is
   * called, just before the file is put in place, when the path holds another file since (another
   * run's report: two cron firings of one job). The file is still written: the last one wins.
   */
  sinceCheck?: { seen: FileSeen; changed: () => void };
}

/**
 * A regular file at a path, as a check saw it (null: none there). Another file put in place since
 * (a rename) has another inode; one written in place, another time or size.
 */
export type FileSeen = Pick<Stats, 'dev' | 'ino' | 'mtimeMs' | 'size'> | null;

export function fileSeen(found: Stats | null): FileSeen {
  return found && { dev: found.dev, ino: found.ino, mtimeMs: found.mtimeMs, size: found.size };
}

/** Calls `sinceCheck.changed` if the regular file at `path` (per `look`) is not the one seen. */
async function noteChange(path: string, options: WriteOptions, look: typeof stat): Promise<void> {
  if (!options.sinceCheck) return;
  const now = await look(path).catch(() => null);
  if (!now?.isFile()) return;
  const { seen, changed } = options.sinceCheck;
  const same =
    seen !== null &&
    now.dev === seen.dev &&
    now.ino === seen.ino &&
    now.mtimeMs === seen.mtimeMs &&
    now.size === seen.size;
  if (!same) changed();
}

export async function writeToFile<T>(
  path: string,
  write: (file: NodeJS.WritableStream) => Promise<T>,
  options: WriteOptions = {},
): Promise<T> {
  const fileError = (error: unknown) =>
    new OutputFileError(
      `cannot write ${path}: ${options.noFollow && codeOf(error) === 'ELOOP' ? 'it is a symbolic link' : codeOf(error)}`,
    );
  const folder = options.within
    ? await openFolderWithin(dirname(resolve(path)), options.within, true).catch((error) =>
        Promise.reject(fileError(error)),
      )
    : null;
  if (folder) {
    try {
      // Held open, the folder is the check: nothing in it is reached through a path again.
      const held = {
        noFollow: true,
        soleLink: true,
        ...(options.sinceCheck ? { sinceCheck: options.sinceCheck } : {}),
      };
      return await replaceWhole(folder, basename(path), write, held, fileError);
    } finally {
      await folder.close();
    }
  }
  try {
    await makeFolders(dirname(resolve(path)));
  } catch (error) {
    throw fileError(error);
  }
  const beside: ConfinedFolder = { at: (name) => join(dirname(path), name), close: async () => undefined };
  return replaceWhole(beside, basename(path), write, options, fileError);
}

/**
 * Writes `name` in `folder`. A regular file (or none yet) is written beside itself and put in place
 * whole once written: a run, report or export that fails half way (a 401, Redis lost, a full disk,
 * a kill) leaves the last whole file as it was, not an empty or cut one, and no partial file.
 */
async function replaceWhole<T>(
  folder: ConfinedFolder,
  name: string,
  write: (file: NodeJS.WritableStream) => Promise<T>,
  options: WriteOptions,
  fileError: (error: unknown) => OutputFileError,
): Promise<T> {
  const target = folder.at(name);
  const replaced = await replaceable(target, options).catch((error) => Promise.reject(fileError(error)));
  if (replaced === 'in place') {
    await noteChange(target, options, stat);
    return writeStream(target, write, options, fileError);
  }
  const partial = folder.at(besideName(name));
  try {
    const result = await writeStream(partial, write, { ...options, exclusive: true }, fileError);
    if (replaced) await keepOwnership(partial, replaced);
    // Looked at last, as near the rename as can be: a report another run put in place meanwhile.
    await noteChange(target, options, lstat);
    await rename(partial, target).catch((error) => Promise.reject(fileError(error)));
    return result;
  } catch (error) {
    await unlink(partial).catch(() => undefined);
    throw error;
  }
}

/**
 * How `path` is written: replaced whole (a regular file, whose mode and owner are kept, or nothing
 * yet: null), or written in place (a device such as /dev/stdout, a pipe, a file with other hard
 * links, a link a person put there on purpose). A link where a job file's path must not have one
 * is refused (ELOOP), as its open would be.
 */
async function replaceable(path: string, options: WriteOptions): Promise<Stats | null | 'in place'> {
  let found: Stats;
  try {
    found = await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (found.isSymbolicLink() && options.noFollow) throw Object.assign(new Error('ELOOP'), { code: 'ELOOP' });
  if (!found.isFile() || found.nlink !== 1) return 'in place';
  // A file one may write in a folder one may not add to (checkOutputFile passed it): in place.
  const folderWritable = await access(dirname(resolve(path)), constants.W_OK).then(
    () => true,
    () => false,
  );
  return folderWritable ? found : 'in place';
}

/** The replacing file gets the mode and owner of the file it replaces (the owner where allowed). */
async function keepOwnership(partial: string, replaced: Stats): Promise<void> {
  await chmod(partial, replaced.mode & 0o7777);
  const made = await stat(partial);
  if (made.uid !== replaced.uid || made.gid !== replaced.gid)
    await chown(partial, replaced.uid, replaced.gid).catch(() => undefined);
}

/** Writes `path` through a stream; the file's own failure is `fileError`, at once (see writeToFile). */
async function writeStream<T>(
  path: string,
  write: (file: NodeJS.WritableStream) => Promise<T>,
  options: WriteOptions & { exclusive?: boolean },
  fileError: (error: unknown) => OutputFileError,
): Promise<T> {
  const noFollowFlags = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW;
  // noFollow (a path a job file chose): a symbolic link put there since it was checked is not
  // followed out of the job's folders; the open fails (ELOOP) instead. A new partial file is made
  // (exclusive), never found, and follows no link.
  const exclusiveFlags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  const givenOpen = options.within !== undefined || (options.soleLink === true && !options.exclusive);
  const file = options.within
    ? createWriteStream('', {
        fd: await openFileWithin(path, options.within).catch((error) => Promise.reject(fileError(error))),
      })
    : options.exclusive
      ? createWriteStream(path, { flags: exclusiveFlags as never })
      : options.soleLink
        ? createWriteStream('', {
            fd: await openSoleFile(path).catch((error) => Promise.reject(fileError(error))),
          })
        : options.noFollow
          ? createWriteStream(path, { flags: noFollowFlags as never })
          : createWriteStream(path);
  // Settles only when the file fails: raced with each step, so that no step waits on a dead file.
  const failed = new Promise<never>((_, reject) => {
    file.once('error', (error) => reject(fileError(error)));
  });
  failed.catch(() => undefined);
  try {
    // A stream given an open file (within, soleLink) is open already, and says nothing of it.
    if (!givenOpen)
      await Promise.race([new Promise<void>((opened) => file.once('open', () => opened())), failed]);
    const result = await Promise.race([write(file), failed]);
    file.end();
    await Promise.race([new Promise<void>((finished) => file.once('finish', () => finished())), failed]);
    return result;
  } catch (error) {
    file.destroy();
    throw error;
  }
}

/**
 * The name of a new file beside `name`: the write's partial file, and the check's probe of it (the
 * same length, so a name the folder's file system finds too long is refused by the check). Random,
 * so that no other process (another run writing or checking the same report) uses it at once.
 */
export function besideName(name: string): string {
  return `.${name}.${randomUUID().slice(0, 8)}.partial`;
}

export function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
}

/** A file that could not be written after all (a full disk, a folder removed meanwhile). */
export class OutputFileError extends UsageError {}

export async function makeFolders(folder: string): Promise<void> {
  try {
    if ((await stat(folder)).isDirectory()) return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (dirname(folder) !== folder) await makeFolders(dirname(folder));
  await mkdir(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
}
