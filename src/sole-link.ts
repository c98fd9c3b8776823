import type { FileHandle } from 'node:fs/promises';

/**
 * A file a job file names must have no other hard link: a hard link carries no folder, so the same
 * file may as well be one outside the job's folders (`ln /etc/x data/hard.csv`), and writing it in
 * place or reading it would reach out of them. Judged on the opened file (fstat), so a link made
 * between a check and the open is caught too.
 */
export const HARD_LINKED = 'it has other hard links: it may be a file outside the folder';

/** `nlink` above 1 on a regular file: what a job file's path never leads to. */
export function hasOtherLinks(info: { isFile(): boolean; nlink: number }): boolean {
  return info.isFile() && info.nlink > 1;
}

/** Fails with HARD_LINKED as its code (read by codeOf) when the opened file has other hard links. */
export async function refuseHardLinked(handle: FileHandle): Promise<void> {
  if (hasOtherLinks(await handle.stat())) throw Object.assign(new Error(HARD_LINKED), { code: HARD_LINKED });
}
