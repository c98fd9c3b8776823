import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkJobsFolder, missingJobsFolderLine } from '../../../src/cli/jobs-folder.js';
import { UsageError } from '../../../src/cli/usage-error.js';

describe('a jobs folder that is not there', () => {
  it('given with --jobs: the option as given, and the folder it names', () => {
    expect(missingJobsFolderLine('/tmp/nothere', '/tmp/nothere', true)).toBe(
      '--jobs /tmp/nothere: no such folder (/tmp/nothere)',
    );
  });

  it('not given: the default, where it looked, and what to do (no option the user never typed)', () => {
    expect(missingJobsFolderLine('jobs', '/tmp/jobs', false)).toBe(
      'no jobs folder at /tmp/jobs (the default of --jobs: jobs/ in the current folder): cd into the folder that holds jobs/, or give --jobs DIR',
    );
  });

  describe('checkJobsFolder', () => {
    let dir = '';
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'catalog-sync-jobs-folder-'));
    });
    afterEach(() => rm(dir, { recursive: true, force: true }));

    it('resolves a folder that is there', async () => {
      expect(await checkJobsFolder(dir, true)).toBe(dir);
    });

    it('refuses a file, or nothing, in one line', async () => {
      await writeFile(join(dir, 'file'), '');
      await expect(checkJobsFolder(join(dir, 'file'), true)).rejects.toThrow(UsageError);
      await expect(checkJobsFolder(join(dir, 'none'), true)).rejects.toThrow(
        new UsageError(`--jobs ${join(dir, 'none')}: no such folder (${join(dir, 'none')})`),
      );
    });
  });
});
