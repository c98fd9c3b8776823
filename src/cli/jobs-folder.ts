import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError } from './usage-error.js';

/**
 * The line for a jobs folder that is not there. Given with `--jobs`, the option as typed; not given,
 * the default and the folder it was looked for in: the user never typed `--jobs jobs`, and what is
 * wrong is most often the current folder (a cron line without `cd`).
 */
export function missingJobsFolderLine(asGiven: string, resolved: string, given: boolean): string {
  return given
    ? `--jobs ${asGiven}: no such folder (${resolved})`
    : `no jobs folder at ${resolved} (the default of --jobs: jobs/ in the current folder): cd into the folder that holds jobs/, or give --jobs DIR`;
}

/** The jobs folder, resolved; refused in one line (exit 2) when it is not a folder. */
export async function checkJobsFolder(asGiven: string, given: boolean): Promise<string> {
  const resolved = resolve(asGiven);
  if (!(await isFolder(resolved))) throw new UsageError(missingJobsFolderLine(asGiven, resolved, given));
  return resolved;
}

export function isFolder(path: string): Promise<boolean> {
  return stat(path).then(
    (info) => info.isDirectory(),
    () => false,
  );
}
