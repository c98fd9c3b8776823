import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll } from 'vitest';
import { projectRoot } from '../../../src/project-root.js';

/**
 * `bin/catalog-sync.js` as a user runs it, with a CommonJS preload (`node --require`) that reports
 * on standard error what the test looks for. Call inside a describe: it writes the preload before
 * the tests and removes it after. Resolves to the launcher's output.
 */
export function launcherWithPreload(
  preloadLines: string[],
): (args: string[], nodeFlags?: string[]) => Promise<{ stdout: string; stderr: string }> {
  let dir = '';
  let preload = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'catalog-sync-preload-'));
    preload = join(dir, 'preload.cjs');
    await writeFile(preload, preloadLines.join('\n'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  return async (args, nodeFlags = []) =>
    promisify(execFile)(
      process.execPath,
      [...nodeFlags, '--require', preload, join(projectRoot(), 'bin/catalog-sync.js'), ...args],
      { env: { PATH: process.env.PATH } },
    );
}
