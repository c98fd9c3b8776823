import { existsSync } from 'node:fs';
import { link, mkdir, mkdtemp, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkOutputFile } from '../../src/output-check.js';
import { writeToFile } from '../../src/output-file.js';

/**
 * A job file's report (`within` its folders): no folder on its way swapped for a link to a folder
 * outside, between the check and the write or during the write, makes a file or folder out there.
 * The swaps happen at fixed points (before the call, or inside the writer), not in a timing race.
 */
let dir = '';
let project = '';
let outside = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'output-within-'));
  project = join(dir, 'project');
  outside = join(dir, 'victim');
  await mkdir(join(project, 'rd'), { recursive: true });
  await mkdir(outside);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** `project/rd` becomes a link to the folder outside; the real folder is kept as `project/real`. */
async function swapOut(): Promise<void> {
  await rename(join(project, 'rd'), join(project, 'real'));
  await symlink('../victim', join(project, 'rd'));
}

const options = () => ({ noFollow: true, within: [project] });
const OUT = /^cannot write .*: it leads outside the job's folders \(a folder on its way was changed\)$/;

describe.runIf(existsSync('/proc/self/fd'))("a job file's report, a folder on its way swapped", () => {
  it('after the check: no folder and no file is made outside, one line says why', async () => {
    const report = join(project, 'rd', 'n1', 'n2', 'out.csv');
    await checkOutputFile(report, '--report', undefined, [project]);
    await swapOut();

    const writing = writeToFile(report, async (file) => void file.write('row,key\n'), options());

    await expect(writing).rejects.toThrow(OUT);
    expect(await readdir(outside)).toEqual([]);
  });

  it('before the check: the check makes nothing outside either', async () => {
    await swapOut();

    const checking = checkOutputFile(join(project, 'rd', 'n1', 'out.csv'), '--report', undefined, [project]);

    await expect(checking).rejects.toThrow(
      /^--report .*: it leads outside the job's folders \(a folder on its way was changed\)$/,
    );
    expect(await readdir(outside)).toEqual([]);
  });

  it('during the write: the file is put in place in the folder it was begun in, none outside, no partial left', async () => {
    const report = join(project, 'rd', 'out.csv');

    await writeToFile(
      report,
      async (file) => {
        file.write('row,key\n');
        await swapOut();
      },
      options(),
    );

    expect(await readdir(outside)).toEqual([]);
    expect(await readdir(join(project, 'real'))).toEqual(['out.csv']);
    expect(await readFile(join(project, 'real', 'out.csv'), 'utf8')).toBe('row,key\n');
  });

  it('a writer that fails leaves no partial file and the last whole report as it was', async () => {
    const report = join(project, 'rd', 'out.csv');
    await writeFile(report, 'old\n');
    const lost = new Error('Redis lost');

    const writing = writeToFile(
      report,
      async (file) => {
        file.write('new');
        await swapOut();
        throw lost;
      },
      options(),
    );

    await expect(writing).rejects.toBe(lost);
    expect(await readdir(join(project, 'real'))).toEqual(['out.csv']);
    expect(await readFile(join(project, 'real', 'out.csv'), 'utf8')).toBe('old\n');
    expect(await readdir(outside)).toEqual([]);
  });

  it('the missing folders of a report within its folders are made, and a link inside them is followed', async () => {
    await symlink('rd', join(project, 'latest'));
    const report = join(project, 'latest', 'nightly', 'r.csv');
    await checkOutputFile(report, '--report', undefined, [project]);

    await writeToFile(report, async (file) => void file.write('row,key\n'), options());

    expect(await readFile(join(project, 'rd', 'nightly', 'r.csv'), 'utf8')).toBe('row,key\n');
    expect(await readdir(join(project, 'rd', 'nightly'))).toEqual(['r.csv']);
  });

  it("says that another's report was put in place since the check, and writes its own", async () => {
    const report = join(project, 'rd', 'out.csv');
    const seen = await checkOutputFile(report, '--report', undefined, [project]);
    let changed = false;

    await writeToFile(
      report,
      async (file) => {
        file.write('mine\n');
        await writeFile(join(project, 'rd', 'theirs.tmp'), 'theirs\n');
        await rename(join(project, 'rd', 'theirs.tmp'), report);
      },
      { ...options(), sinceCheck: { seen: seen ?? null, changed: () => (changed = true) } },
    );

    expect(changed).toBe(true);
    expect(await readFile(report, 'utf8')).toBe('mine\n');
    expect(await readdir(join(project, 'rd'))).toEqual(['out.csv']);
  });

  it('the check refuses a link to a file not made yet, and makes nothing where it leads', async () => {
    await symlink(join(outside, 'made.csv'), join(project, 'rd', 'out.csv'));

    const checking = checkOutputFile(join(project, 'rd', 'out.csv'), '--report', undefined, [project]);

    await expect(checking).rejects.toThrow(/^--report .*out\.csv: it is a symbolic link$/);
    expect(await readdir(outside)).toEqual([]);
    expect(await readdir(join(project, 'rd'))).toEqual(['out.csv']);
  });

  it('a report that became a link meanwhile is not written through', async () => {
    await writeFile(join(outside, 'kept.csv'), 'kept\n');
    await symlink(join(outside, 'kept.csv'), join(project, 'rd', 'out.csv'));

    const writing = writeToFile(
      join(project, 'rd', 'out.csv'),
      async (file) => void file.write('x\n'),
      options(),
    );

    await expect(writing).rejects.toThrow(/: it is a symbolic link$/);
    expect(await readFile(join(outside, 'kept.csv'), 'utf8')).toBe('kept\n');
    expect(await readdir(join(project, 'rd'))).toEqual(['out.csv']);
  });

  it('a report that became a hard link to a file outside meanwhile is not written into', async () => {
    await writeFile(join(outside, 'kept.csv'), 'kept\n');
    await link(join(outside, 'kept.csv'), join(project, 'rd', 'out.csv'));

    const writing = writeToFile(
      join(project, 'rd', 'out.csv'),
      async (file) => void file.write('x\n'),
      options(),
    );

    await expect(writing).rejects.toThrow(/: it has other hard links: it may be a file outside the folder$/);
    expect(await readFile(join(outside, 'kept.csv'), 'utf8')).toBe('kept\n');
  });
});
