import { constants } from 'node:fs';
import { type FileHandle, open, realpath, stat } from 'node:fs/promises';
import { type JobRead, refuseJobRead } from './job-paths.js';
import { UsageError } from './usage-error.js';

/**
 * A file a job file names is opened once and judged on that descriptor, then read from it: judged
 * by its path and opened again later, a link swapped in between (a catalog, then the keys file)
 * was read unchecked. Opened without blocking, so a FIFO cannot hang the open before it is refused;
 * for a plain file the flag changes nothing.
 */
export async function openJobFile(path: string, read: JobRead, keysFile?: string): Promise<FileHandle> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  try {
    const info = await handle.stat();
    refuseJobRead(await realPathOf(handle, path, info, read), info, read.shown, read.folders);
    if (keysFile !== undefined && (await sameFile(keysFile, info)))
      throw new UsageError(
        `${read.shown} is the keys file: a job file never names it; give a source on the command line instead`,
      );
    return handle;
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

/**
 * Where the opened file really is: on Linux the descriptor's own link in /proc; elsewhere the path
 * resolved after the open. Either must name the very file opened (device and inode), else it was
 * swapped or removed meanwhile and its place cannot be known.
 */
async function realPathOf(
  handle: FileHandle,
  path: string,
  info: { dev: number; ino: number },
  read: JobRead,
): Promise<string> {
  const real = await realpath(`/proc/self/fd/${handle.fd}`).catch(() => realpath(path));
  if (!(await sameFile(real, info)))
    throw new UsageError(`${read.shown} was replaced while it was opened: not read (run it again)`);
  return real;
}

async function sameFile(path: string, info: { dev: number; ino: number }): Promise<boolean> {
  const there = await stat(path).catch(() => null);
  return there !== null && there.dev === info.dev && there.ino === info.ino;
}
