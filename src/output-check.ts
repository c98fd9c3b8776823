import { constants } from 'node:fs';
import { access, type FileHandle, lstat, open, realpath, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { type ConfinedFolder, OUTSIDE, openFolderWithin } from './confined-folder.js';
import { besideName, codeOf, type FileSeen, fileSeen, makeFolders } from './output-file.js';
import { UsageError } from './usage-error.js';

/**
 * The check, before any work, that a file a command writes at its end (output-file.ts) can be
 * written there: a nightly run must not send its writes and then die on a path it could never write.
 *
 * Refuses, in one line, a path that cannot be written or that is the source being read. `within`:
 * a job file chose it, and its folder is made and tried only inside those folders (see writeToFile).
 * Resolves to what is there (FileSeen), for the write to tell another's file put there since;
 * undefined for a device or a pipe.
 */
export async function checkOutputFile(
  path: string,
  option: string,
  source?: string,
  within?: readonly string[],
): Promise<FileSeen | undefined> {
  const shown = `${option} ${path}`;
  if (source !== undefined && (await sameFile(path, source)))
    throw new UsageError(`${shown} is the source being read: the report would overwrite it`);
  const existing = await statOrNull(path, shown);
  if (existing?.isDirectory()) throw new UsageError(`${shown} is a directory: give a file name`);
  // A device or a pipe is not opened: a pipe with no reader would wait for one (or refuse at once).
  if (existing && !existing.isFile()) return writable(path, shown).then(() => undefined);
  const folder = within
    ? await openFolderWithin(dirname(resolve(path)), within, true).catch(refuseFolder(shown))
    : null;
  if (folder) {
    try {
      await openableIn(folder, basename(path), shown, existing === null);
      return fileSeen(existing);
    } finally {
      await folder.close();
    }
  }
  // Not there yet: its folder is made now (it would be at the end), so that it is known to be
  // writable before any work.
  if (!existing) {
    try {
      await makeFolders(dirname(resolve(path)));
    } catch (error) {
      throw new UsageError(`${shown}: its folder cannot be made (${(error as NodeJS.ErrnoException).code})`);
    }
  }
  await openable(path, shown, existing === null);
  return fileSeen(existing);
}

/**
 * Opens the file for writing, as the command will at its end, and closes it: access(W_OK) says yes
 * to root for any path (/proc/nope.csv), and the run sent its writes before the report failed. A
 * file that is there is not emptied (no O_TRUNC). One not there yet is written beside itself and
 * renamed into place (replaceWhole): the check makes and removes such a file, of a name its own
 * (besideName), never the report's path itself. Two runs that check one new path at once (two cron
 * firings of a job) would otherwise meet at it: one's file found by the other (EEXIST), then gone
 * when the other opened it (ENOENT, exit 2); and a report put there meanwhile could be removed.
 */
async function openable(path: string, shown: string, create: boolean, again = false): Promise<void> {
  const link = create && (await lstat(path).catch(() => null))?.isSymbolicLink() === true;
  if (create && !link) return probe(join(dirname(path), besideName(basename(path))), shown);
  // A link to a file not made yet is written through, as the command will (in place); its target
  // made meanwhile by someone else is tried as it is, and not removed.
  const through = link && (await isDanglingLink(path));
  let file: FileHandle;
  try {
    file = await open(path, constants.O_WRONLY | (through ? constants.O_CREAT : 0), 0o644);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Removed since it was seen: it is made at the end, as a file not there (tried once so).
    if (!through && code === 'ENOENT' && !again) return openable(path, shown, true, true);
    throw new UsageError(`${shown}: cannot be written (${code})`);
  }
  const made = through ? await realpath(path).catch(() => null) : null;
  await file.close();
  if (made) await unlink(made).catch(() => undefined);
}

/** `openable` in a folder held open (confined-folder.ts): no link is followed, nor any folder's path. */
async function openableIn(
  folder: ConfinedFolder,
  name: string,
  shown: string,
  create: boolean,
): Promise<void> {
  const target = folder.at(name);
  if (create) {
    // A link there is refused, as its open without following it would be.
    if ((await lstat(target).catch(() => null))?.isSymbolicLink())
      throw new UsageError(`${shown}: it is a symbolic link`);
    return probe(folder.at(besideName(name)), shown);
  }
  let file: FileHandle;
  try {
    file = await open(target, constants.O_WRONLY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = codeOf(error);
    // Removed since it was seen: it is made at the end, as a file not there.
    if (code === 'ENOENT') return openableIn(folder, name, shown, true);
    throw new UsageError(
      `${shown}: ${code === 'ELOOP' ? 'it is a symbolic link' : `cannot be written (${code})`}`,
    );
  }
  await file.close();
}

/** Makes `path` (a name no one else uses, see besideName), as the write will, and removes it. */
async function probe(path: string, shown: string): Promise<void> {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  let file: FileHandle;
  try {
    file = await open(path, flags, 0o644);
  } catch (error) {
    throw new UsageError(`${shown}: cannot be written (${codeOf(error)})`);
  }
  await file.close();
  await unlink(path).catch(() => undefined);
}

function refuseFolder(shown: string): (error: unknown) => never {
  return (error) => {
    const code = codeOf(error);
    throw new UsageError(`${shown}: ${code === OUTSIDE ? OUTSIDE : `its folder cannot be made (${code})`}`);
  };
}

async function isDanglingLink(path: string): Promise<boolean> {
  const link = await lstat(path).catch(() => null);
  return link?.isSymbolicLink() === true && (await stat(path).catch(() => null)) === null;
}

async function statOrNull(path: string, shown: string) {
  try {
    return await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    throw new UsageError(`${shown}: cannot be written (${code})`);
  }
}

async function writable(path: string, shown: string): Promise<void> {
  try {
    await access(path, constants.W_OK);
  } catch (error) {
    throw new UsageError(`${shown}: cannot be written (${(error as NodeJS.ErrnoException).code})`);
  }
}

async function sameFile(path: string, source: string): Promise<boolean> {
  if (/^https?:\/\//i.test(source) || source === '-') return false;
  if (resolve(path) === resolve(source)) return true;
  const [a, b] = await Promise.all([stat(path).catch(() => null), stat(source).catch(() => null)]);
  return a !== null && b !== null && a.dev === b.dev && a.ino === b.ino;
}
