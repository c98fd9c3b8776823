import { existsSync } from 'node:fs';
import {
  link,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkOutputFile } from '../../src/output-check.js';
import { type FileSeen, OutputFileError, writeToFile } from '../../src/output-file.js';
import { UsageError } from '../../src/usage-error.js';

/** The files written at a command's end (--report, --out), on a real file system. */
let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'output-file-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('checkOutputFile', () => {
  it('refuses a folder, a path under a file, and the source itself however it is spelt', async () => {
    const source = join(dir, 'feed.csv');
    await writeFile(source, 'sku\nA\n');
    await link(source, join(dir, 'same-feed.csv'));
    await expect(checkOutputFile(dir, '--report')).rejects.toThrow(
      new UsageError(`--report ${dir} is a directory: give a file name`),
    );
    await expect(checkOutputFile(join(source, 'r.csv'), '--report')).rejects.toThrow(
      /cannot be written \(ENOTDIR\)$/,
    );
    for (const spelt of [source, join(dir, '.', 'feed.csv'), join(dir, 'same-feed.csv')]) {
      await expect(checkOutputFile(spelt, '--report', source)).rejects.toThrow(
        `--report ${spelt} is the source being read: the report would overwrite it`,
      );
    }
    expect(await readFile(source, 'utf8')).toBe('sku\nA\n');
  });

  it('makes the missing folders of a new file, and passes a file that is there', async () => {
    const deep = join(dir, 'reports', 'nightly', 'r.csv');
    await checkOutputFile(deep, '--report', join(dir, 'feed.csv'));
    expect(existsSync(join(dir, 'reports', 'nightly'))).toBe(true);
    await writeFile(deep, 'old');
    await expect(checkOutputFile(deep, '--out')).resolves.toMatchObject({ size: 3 });
  });

  it('opens a file that is there without emptying it, and leaves no file where there was none', async () => {
    const there = join(dir, 'r.csv');
    await writeFile(there, 'row,key\n1,A\n');
    await checkOutputFile(there, '--report');
    expect(await readFile(there, 'utf8')).toBe('row,key\n1,A\n');

    await checkOutputFile(join(dir, 'new.csv'), '--report');
    expect(await readdir(dir)).toEqual(['r.csv']);
  });

  it('passes a link to a file not made yet (written through it at the end), and makes no file', async () => {
    await symlink(join(dir, 'target.csv'), join(dir, 'latest.csv'));

    await checkOutputFile(join(dir, 'latest.csv'), '--report');

    expect((await readdir(dir)).sort()).toEqual(['latest.csv']);
  });

  // access(W_OK) says yes to root for any path: only opening the file tells, for root too.
  it.runIf(existsSync('/proc/self'))(
    'says in one line that a file cannot be made in /proc, whoever runs it',
    async () => {
      await expect(checkOutputFile('/proc/catalog-sync-none.csv', '--report')).rejects.toThrow(
        /^--report \/proc\/catalog-sync-none\.csv: cannot be written \((ENOENT|EACCES)\)$/,
      );
    },
  );

  it.runIf(existsSync('/proc/self'))(
    'says in one line that a folder under /proc cannot be made',
    async () => {
      await expect(checkOutputFile('/proc/catalog-sync-none/r.csv', '--report')).rejects.toThrow(
        '--report /proc/catalog-sync-none/r.csv: its folder cannot be made (ENOENT)',
      );
    },
  );
});

describe('writeToFile', () => {
  it('writes the file in folders it makes, and resolves with what the writer returned', async () => {
    const path = join(dir, 'a', 'b', 'r.csv');
    const lines = await writeToFile(path, async (file) => {
      file.write('row,key\n');
      return 1;
    });
    expect(lines).toBe(1);
    expect(await readFile(path, 'utf8')).toBe('row,key\n');
  });

  it.runIf(existsSync('/dev/full'))(
    'fails at once when the disk is full, even while the writer waits to drain',
    async () => {
      const writer = async (file: NodeJS.WritableStream) => {
        // As the report's CSV does: waits for 'drain' when the stream is full, which a dead file never sends.
        for (let i = 0; i < 10_000; i++) {
          if (!file.write(`${'x'.repeat(1000)}\n`))
            await new Promise((resolve) => file.once('drain', resolve));
        }
        return 0;
      };
      await expect(writeToFile('/dev/full', writer)).rejects.toThrow(
        new OutputFileError('cannot write /dev/full: ENOSPC'),
      );
    },
  );

  it("leaves the writer's own failure as it is", async () => {
    const lost = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' });
    await expect(writeToFile(join(dir, 'r.csv'), () => Promise.reject(lost))).rejects.toBe(lost);
  });

  it('leaves the last whole file as it was when the writer fails half way, and no partial file', async () => {
    const path = join(dir, 'catalog.csv');
    await writeFile(path, 'sku,name\nA,Lamp\n', { mode: 0o640 });
    const lost = new Error('401: the key was refused');
    const failing = writeToFile(path, async (file) => {
      file.write('sku,na');
      await new Promise((resolve) => setTimeout(resolve, 10));
      throw lost;
    });
    await expect(failing).rejects.toBe(lost);
    expect(await readFile(path, 'utf8')).toBe('sku,name\nA,Lamp\n');
    expect(await readdir(dir)).toEqual(['catalog.csv']);

    await writeToFile(path, async (file) => void file.write('sku,name\nB,Desk\n'));
    expect(await readFile(path, 'utf8')).toBe('sku,name\nB,Desk\n');
    expect((await stat(path)).mode & 0o777).toBe(0o640);
    expect(await readdir(dir)).toEqual(['catalog.csv']);
  });

  it('writes in place what is not a lone regular file: a file with another hard link, a link', async () => {
    const path = join(dir, 'r.csv');
    await writeFile(path, 'old\n');
    await link(path, join(dir, 'other-name.csv'));
    await writeToFile(path, async (file) => void file.write('new\n'));
    expect(await readFile(join(dir, 'other-name.csv'), 'utf8')).toBe('new\n');

    await symlink(path, join(dir, 'latest.csv'));
    await writeToFile(join(dir, 'latest.csv'), async (file) => void file.write('newer\n'));
    expect(await readFile(path, 'utf8')).toBe('newer\n');
    expect((await lstat(join(dir, 'latest.csv'))).isSymbolicLink()).toBe(true);
  });

  it('fails in one line naming the file when it cannot be opened', async () => {
    await mkdir(join(dir, 'taken.csv'));
    await expect(writeToFile(join(dir, 'taken.csv'), async () => 0)).rejects.toThrow(
      new OutputFileError(`cannot write ${join(dir, 'taken.csv')}: EISDIR`),
    );
  });
});

describe('writeToFile, told what its check saw (sinceCheck)', () => {
  /** Writes `line` to `path`, with `meanwhile` run while it writes; resolves to whether a change was said. */
  async function written(
    path: string,
    seen: FileSeen | undefined,
    meanwhile = async () => {},
  ): Promise<boolean> {
    if (seen === undefined) throw new Error("a regular file's path was checked as a device");
    let changed = false;
    await writeToFile(
      path,
      async (file) => {
        file.write('mine\n');
        await meanwhile();
      },
      { sinceCheck: { seen, changed: () => (changed = true) } },
    );
    return changed;
  }

  it('says nothing when the path holds what the check saw: nothing, or the same file', async () => {
    const path = join(dir, 'r.csv');
    expect(await written(path, await checkOutputFile(path, '--report'))).toBe(false);

    expect(await written(path, await checkOutputFile(path, '--report'))).toBe(false);
    expect(await readFile(path, 'utf8')).toBe('mine\n');
  });

  it("says so when another's file was put there since (first night, or over the last report), and still writes", async () => {
    const path = join(dir, 'r.csv');
    const another = async () => {
      await writeFile(join(dir, 'other.tmp'), 'theirs\n');
      await rename(join(dir, 'other.tmp'), path);
    };
    expect(await written(path, await checkOutputFile(path, '--report'), another)).toBe(true);
    expect(await readFile(path, 'utf8')).toBe('mine\n');

    expect(await written(path, await checkOutputFile(path, '--report'), another)).toBe(true);
    expect(await readFile(path, 'utf8')).toBe('mine\n');
    expect(await readdir(dir)).toEqual(['r.csv']);
  });

  it('says so of a file written in place (another hard link) since', async () => {
    const path = join(dir, 'r.csv');
    await writeFile(path, 'old\n');
    await link(path, join(dir, 'other-name.csv'));
    const seen = await checkOutputFile(path, '--report');
    await writeFile(path, 'theirs, longer\n');

    expect(await written(path, seen)).toBe(true);
    expect(await readFile(join(dir, 'other-name.csv'), 'utf8')).toBe('mine\n');
  });
});
