import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkOutputFile } from '../../src/output-check.js';

/**
 * Two cron firings of one job check the same new report path at the same moment. The check made
 * its probe at the report's own path and removed it: the other firing found it there (EEXIST),
 * tried it again as a file that is there, and met it removed (ENOENT, exit 2). Many checks at once
 * make the overlap happen within one test, every time.
 */
let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'output-concurrent-'));
  await mkdir(join(dir, 'reports'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const ATTEMPTS = 400;

/**
 * The refusals of ATTEMPTS checks begun over a few milliseconds: begun all in the same tick, their
 * steps queue in lockstep and rarely cross; spread out, one's probe is made and removed between
 * another's steps.
 */
async function allAtOnce(check: () => Promise<unknown>): Promise<string[]> {
  const begun = Array.from({ length: ATTEMPTS }, (_, i) =>
    new Promise((resolve) => setTimeout(resolve, i % 20)).then(check),
  );
  const settled = await Promise.allSettled(begun);
  return [...new Set(settled.flatMap((one) => (one.status === 'rejected' ? [String(one.reason)] : [])))];
}

describe('checks of one new report path at once', () => {
  it('--report on the command line: none is refused, and no file is left', async () => {
    const report = join(dir, 'reports', 'twice.csv');

    const refused = await allAtOnce(() => checkOutputFile(report, '--report'));

    expect(refused).toEqual([]);
    expect(await readdir(join(dir, 'reports'))).toEqual([]);
  });

  it.runIf(existsSync('/proc/self/fd'))(
    "a job file's report (within its folders): none is refused, and no file is left",
    async () => {
      const report = join(dir, 'reports', 'twice.csv');

      const refused = await allAtOnce(() => checkOutputFile(report, '--report', undefined, [dir]));

      expect(refused).toEqual([]);
      expect(await readdir(join(dir, 'reports'))).toEqual([]);
    },
  );
});
