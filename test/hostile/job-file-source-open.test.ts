import { execFileSync } from 'node:child_process';
import { chmod, mkdir, symlink, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { commander } from '../../src/cjs-packages.js';
import { prepareRun } from '../../src/cli/prepare-run.js';
import type { CliIo } from '../../src/cli/program.js';
import type { RunFlags } from '../../src/cli/run-flags.js';
import { addRunOptions, resolveRunInput } from '../../src/cli/run-options.js';
import type { SellerLookup } from '../../src/queue/seller-names.js';
import { catalogRows, writeCsv } from '../integration/support/catalog.js';
import { MAIN_KEY, usePipeline } from '../integration/support/pipeline.js';

/**
 * A prober who can write in the jobs folder: a job's source that is a link swapped between the
 * check and the read (the keys file read after a catalog was checked), a delimiter the flag
 * refuses, a FIFO that hangs the read, a header holding the key. The source is opened once, checked
 * as opened, and read from that descriptor; what a source says in an error never holds a key.
 */
describe("a job file's source is checked as it is opened", () => {
  const pipeline = usePipeline();
  const SECRET = 'sk_SECRETKEY_123456';

  async function project(jobText: string): Promise<{ job: string; dir: string }> {
    const dir = join(pipeline.dir, 'shop');
    await mkdir(join(dir, 'jobs'), { recursive: true });
    const job = join(dir, 'jobs', 't.yml');
    await writeFile(job, jobText, 'utf8');
    return { job, dir };
  }

  function testIo(env: NodeJS.ProcessEnv): CliIo {
    const stdin = new PassThrough();
    stdin.end();
    return { stdout: new PassThrough(), stderr: new PassThrough(), stdin, env, exitCode: 0 };
  }

  it('a link swapped for the keys file after the path check is refused when opened, never read', async () => {
    const { job, dir } = await project('source: jobs/x.csv\ndryRun: true\n');
    await writeCsv(dir, 'catalog.csv', catalogRows(2));
    const keys = join(pipeline.dir, 'keys.env');
    await writeFile(keys, `SELLER_API_KEY=${SECRET}\n`, { mode: 0o600 });
    await chmod(keys, 0o600);
    const link = join(dir, 'jobs', 'x.csv');
    await symlink('../catalog.csv', link);

    const command = addRunOptions(
      new (commander().Command)('run').argument('[source]').exitOverride(),
      'run',
    );
    command.parse(['--job', job], { from: 'user' });
    const env = { ...pipeline.env };
    // The path check passes: the link leads to the catalog, inside the project.
    const input = await resolveRunInput(command, undefined, command.opts<RunFlags>(), env);
    // The seam between the check and the open: the prober swaps the link.
    await unlink(link);
    await symlink('../../keys.env', link);

    const prepared = prepareRun(testIo(env), input.source, input.flags, {} as SellerLookup, 'run');
    await expect(prepared).rejects.toThrow(/t\.yml: source: jobs\/x\.csv (leads outside|is a private file)/);
    await expect(prepared).rejects.not.toThrow(new RegExp(SECRET));
  });

  it('delimiter "=" in a job file is refused as --delimiter refuses it; "tab" is taken as the flag takes it', async () => {
    const { job, dir } = await project('source: catalog.csv\ndelimiter: "="\ndryRun: true\n');
    await writeCsv(dir, 'catalog.csv', catalogRows(2));

    const refused = await pipeline.cli(['run', '--job', job]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^catalog-sync: t\.yml: delimiter: .*, ; tab or \|/),
    ]);

    await writeFile(join(dir, 'tabbed.tsv'), 'sku\tname\tprice\nSKU-1\tLamp\t9.90\n', 'utf8');
    await writeFile(job, 'source: tabbed.tsv\ndelimiter: tab\ndryRun: true\n', 'utf8');
    const taken = await pipeline.cli(['run', '--job', job]);
    expect(taken.code, taken.stderr).toBe(0);
  });

  it.each([
    ['preset: nope', /t\.yml: preset: /],
    ['fields: " , "', /t\.yml: fields: /],
  ])('a job file option the flag would refuse (%s) is refused in one line', async (line, message) => {
    const { job, dir } = await project(`source: catalog.csv\n${line}\ndryRun: true\n`);
    await writeCsv(dir, 'catalog.csv', catalogRows(2));

    const result = await pipeline.cli(['run', '--job', job]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(message)]);
  });

  it('a FIFO as a job\'s source is refused in one line ("not a plain file"), without waiting on it', async () => {
    const { job, dir } = await project('source: feed.csv\ndryRun: true\n');
    execFileSync('mkfifo', [join(dir, 'feed.csv')]);

    const child = pipeline.spawn(['run', '--job', job]);
    const exited = await child.exited;

    expect(exited.code).toBe(2);
    expect(child.stderr().trim().split('\n')).toEqual([
      expect.stringMatching(/t\.yml: source: feed\.csv is not a plain file/),
    ]);
  }, 15_000);

  it('a job file outside a jobs/ folder resolves its paths from its own folder, the one it may read', async () => {
    const etc = join(pipeline.dir, 'etcjobs');
    await mkdir(etc, { recursive: true });
    await writeCsv(etc, 'data.csv', catalogRows(2));
    await writeFile(join(etc, 'n.yml'), 'source: data.csv\ndryRun: true\n', 'utf8');

    const result = await pipeline.cli(['run', '--job', join(etc, 'n.yml')]);
    expect(result.code, result.stderr).toBe(0);
  });

  it.each([
    ['the environment', false],
    ['a keys file', true],
  ])('a header holding the key (from %s) is redacted in the error line', async (_from, viaFile) => {
    const key = viaFile ? 'sk_FROMFILE_abcdef123' : MAIN_KEY;
    const path = join(pipeline.dir, 'odd.csv');
    await writeFile(path, `name,${key}\nLamp,1\n`, 'utf8');
    const keysFile = join(pipeline.dir, 'more-keys.env');
    await writeFile(keysFile, `SELLER_API_KEY_OTHER=${key}\n`, { mode: 0o600 });
    await chmod(keysFile, 0o600);

    const result = await pipeline.cli([
      'run',
      path,
      '--dry-run',
      '--match-by',
      'sku',
      ...(viaFile ? ['--keys-file', keysFile] : []),
    ]);

    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringContaining('[redacted]')]);
    expect(result.stderr).not.toContain(key);
  });
});
