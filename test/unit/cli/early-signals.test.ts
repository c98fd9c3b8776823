import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../../src/project-root.js';

/**
 * bin/early-signals.js in a process of its own, whose argv names a command: the script listens for
 * SIGINT itself and lets go (as `approve` does once done) when `listened`, then interrupts itself.
 */
describe('the launcher’s early interrupt line', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'catalog-sync-early-signals-'));
    const early = pathToFileURL(join(projectRoot(), 'bin/early-signals.js')).href;
    await writeFile(
      join(dir, 'interrupt.mjs'),
      [
        `await import(${JSON.stringify(early)});`,
        "if (process.env.LISTENED === '1') {",
        '  const own = () => {};',
        "  process.on('SIGINT', own);",
        "  process.off('SIGINT', own);",
        '}',
        "process.kill(process.pid, 'SIGINT');",
        'setTimeout(() => {}, 10_000);',
      ].join('\n'),
    );
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  function interrupted(args: string[], listened: boolean): Promise<{ code: number | null; stderr: string }> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        [join(dir, 'interrupt.mjs'), ...args],
        { env: { PATH: process.env.PATH, LISTENED: listened ? '1' : '0' } },
        (error, _stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stderr }),
      );
    });
  }

  it('before `approve` listens: the line says nothing was approved', async () => {
    expect(await interrupted(['approve', 'R1', '--rows', '3'], false)).toEqual({
      code: 130,
      stderr:
        'catalog-sync: interrupted (SIGINT) before the approval began: nothing was approved, queued or sent\n',
    });
  });

  it('once `approve` has listened and let go (its work done): no state is claimed', async () => {
    expect(await interrupted(['approve', 'R1'], true)).toEqual({
      code: 130,
      stderr: 'catalog-sync: interrupted (SIGINT)\n',
    });
  });

  it('a command that changes nothing: the bare line', async () => {
    expect(await interrupted(['--no-color', 'status', 'approve'], false)).toEqual({
      code: 130,
      stderr: 'catalog-sync: interrupted (SIGINT)\n',
    });
  });
});
