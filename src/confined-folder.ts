import { constants, existsSync } from 'node:fs';
import { type FileHandle, lstat, mkdir, open, realpath, unlink } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { refuseHardLinked } from './sole-link.js';

/**
 * The folder of a file a job file chose (its report), held open: reached from one of the folders the
 * job may write in by opening one name at a time, never through a symbolic link, and making the
 * missing ones there. The file is then made, renamed and removed through `/proc/self/fd/N/name`,
 * which Linux resolves from the open folder as openat does: a folder on the way swapped for a link
 * after the check (or during the write) cannot lead a file, a folder or a rename out.
 *
 * Linux only: where /proc/self/fd is absent (macOS, the BSDs) `openFolderWithin` gives null and the
 * caller keeps its path-based check of the open file (output-file.ts), as before.
 */

const FDS = '/proc/self/fd';

export const OUTSIDE = "it leads outside the job's folders (a folder on its way was changed)";

export interface ConfinedFolder {
  /** The path that reaches `name` in the open folder (never through the folder's own path). */
  at(name: string): string;
  close(): Promise<void>;
}

/**
 * Opens `folder`, which must lie in one of `within` (real paths), making its missing folders when
 * `make`. A link inside them that stays inside is followed (resolved first, as the check did); the
 * walk itself follows none. Fails with OUTSIDE as its code when the folder is, or has become, out.
 */
export async function openFolderWithin(
  folder: string,
  within: readonly string[],
  make: boolean,
): Promise<ConfinedFolder | null> {
  if (!existsSync(FDS)) return null;
  const planned = await realOrPlanned(folder);
  const root = within.filter((allowed) => isInside(planned, allowed)).sort((a, b) => b.length - a.length)[0];
  if (root === undefined) throw outside();
  let held = await open(root, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    for (const name of relative(root, planned).split(sep).filter(Boolean)) {
      const next = await openChild(held, name, make);
      await held.close();
      held = next;
    }
    // Moved out whole (not swapped) while walked: said as well, before anything is made in it.
    if (!isInside(await realpath(`${FDS}/${held.fd}`), root)) throw outside();
  } catch (error) {
    await held.close();
    throw error;
  }
  const fd = held.fd;
  return { at: (name) => `${FDS}/${fd}/${name}`, close: () => held.close() };
}

/** The folder `name` in `parent`, not through a link; made first when missing and `make`. */
async function openChild(parent: FileHandle, name: string, make: boolean): Promise<FileHandle> {
  const path = `${FDS}/${parent.fd}/${name}`;
  try {
    return await open(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // O_DIRECTORY | O_NOFOLLOW on a link says ENOTDIR (Linux): a link where the check saw a folder.
    if ((code === 'ENOTDIR' || code === 'ELOOP') && (await lstat(path).catch(() => null))?.isSymbolicLink())
      throw outside();
    if (code !== 'ENOENT' || !make) throw error;
  }
  // mkdir follows no link at its last name: a link put there meanwhile is EEXIST, then refused above.
  await mkdir(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  return openChild(parent, name, false);
}

/**
 * `path` with its links resolved; a path not there yet is its nearest existing folder, resolved,
 * plus the names still to be made. A dangling link on the way leads nowhere known: OUTSIDE.
 */
async function realOrPlanned(path: string): Promise<string> {
  const missing: string[] = [];
  for (let at = path; ; at = dirname(at)) {
    try {
      return join(await realpath(at), ...missing.reverse());
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(at) === at) throw error;
      if ((await lstat(at).catch(() => null)) !== null) throw outside();
      missing.push(basename(at));
    }
  }
}

/**
 * A job file's file written in place (a file with other hard links, one its folder does not let be
 * replaced) in a folder held open: opened without following a link and without truncating it, and
 * emptied only once it is known to have no other hard link (sole-link.ts).
 */
export async function openSoleFile(path: string): Promise<FileHandle> {
  return openEmptiedOnceChecked(path, async () => undefined);
}

/**
 * Opens `path` for writing without following a link at its end and without truncating it; empties
 * it only once `check` (where it really is) and the hard-link check passed; closed if either throws.
 */
async function openEmptiedOnceChecked(
  path: string,
  check: (handle: FileHandle) => Promise<void>,
): Promise<FileHandle> {
  const handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW, 0o644);
  try {
    await check(handle);
    await refuseHardLinked(handle);
    await handle.truncate(0);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * Where /proc/self/fd is absent (openFolderWithin gives null): opens `path` for writing without
 * following a link at its end and without truncating it, checks where the open file really is, and
 * only then empties it: a file outside `within` is left as it was. Its folders are reached by path.
 */
export async function openFileWithin(path: string, within: readonly string[]): Promise<FileHandle> {
  const existed = await lstat(path).then(
    () => true,
    () => false,
  );
  return openEmptiedOnceChecked(path, async (handle) => {
    const real = await realpath(`/proc/self/fd/${handle.fd}`).catch(() => realpath(path));
    if (!within.some((folder) => isInside(real, folder))) {
      // Made by this open, out there: taken back (one that was there is left as it was).
      if (!existed) await unlink(real).catch(() => undefined);
      throw outside();
    }
  });
}

function isInside(child: string, folder: string): boolean {
  return child === folder || child.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

function outside(): Error {
  return Object.assign(new Error(OUTSIDE), { code: OUTSIDE });
}
