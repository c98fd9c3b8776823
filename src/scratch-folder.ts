import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Scratch folders (an export's records while its columns are gathered) are removed by whoever made
 * them, and, whatever way the process ends (an error thrown past the maker, `process.exit` on a
 * closed pipe, the exit after SIGTERM or SIGINT), by a last look on `exit`: a scratch copy of a
 * seller's catalog is never left behind in the temp folder.
 */
const open = new Set<string>();
let hooked = false;

export async function makeScratchFolder(prefix: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), prefix));
  open.add(folder);
  if (!hooked) {
    hooked = true;
    process.once('exit', () => {
      for (const left of open) rmSync(left, { recursive: true, force: true });
    });
  }
  return folder;
}

export async function removeScratchFolder(folder: string): Promise<void> {
  await rm(folder, { recursive: true, force: true });
  open.delete(folder);
}
