import { existsSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeToFile } from '../../src/output-file.js';
import { catalogRows, writeCsv } from '../integration/support/catalog.js';
import { usePipeline } from '../integration/support/pipeline.js';

/**
 * Issue 32, point 2: a job file's `report: ../../anything` replaced a file outside the project, and
 * its `source` could read any file. A job file's paths stay inside its project folder (the folder
 * that holds jobs/) or the data folder the operator names: no `..` out, no symbolic link out.
 */
describe("a job file's paths stay inside the folders the operator allowed", () => {
  const pipeline = usePipeline();

  /** `<tmp>/a/shop/jobs/nightly.yml`: `../../x` from the project is `<tmp>/x`, outside it. */
  async function project(jobText: string): Promise<{ job: string; shop: string }> {
    const shop = join(pipeline.dir, 'a', 'shop');
    await mkdir(join(shop, 'jobs'), { recursive: true });
    const job = join(shop, 'jobs', 'nightly.yml');
    await writeFile(job, jobText, 'utf8');
    return { job, shop };
  }

  function oneLine(stderr: string): string {
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    return lines[0] as string;
  }

  it('report: ../../x is refused before any request, and nothing is written outside', async () => {
    const { job, shop } = await project('source: catalog.csv\nreport: ../../escaped.csv\ndryRun: true\n');
    await writeCsv(shop, 'catalog.csv', catalogRows(2));

    const result = await pipeline.cli(['run', '--job', job]);

    expect(result.code).toBe(2);
    expect(oneLine(result.stderr)).toMatch(
      /^catalog-sync: nightly\.yml: report: \.\.\/\.\.\/escaped\.csv leads outside the job's folders/,
    );
    expect(existsSync(join(pipeline.dir, 'escaped.csv'))).toBe(false);
    expect(pipeline.sandbox.stats().total).toBe(0);
  });

  it('a report that is a symbolic link is refused, even to a file inside the data folder', async () => {
    const { job, shop } = await project('source: catalog.csv\nreport: out.csv\ndryRun: true\n');
    await writeCsv(shop, 'catalog.csv', catalogRows(2));
    const victim = join(pipeline.dir, 'victim.sh');
    await writeFile(victim, 'echo kept\n', 'utf8');
    await symlink(victim, join(shop, 'out.csv'));

    for (const extra of [[], ['--data-dir', pipeline.dir]]) {
      const result = await pipeline.cli(['run', '--job', job, ...extra]);
      expect(result.code).toBe(2);
      expect(oneLine(result.stderr)).toMatch(
        /nightly\.yml: report: out\.csv (leads outside|is a symbolic link)/,
      );
    }
    expect(await readFile(victim, 'utf8')).toBe('echo kept\n');
    expect(pipeline.sandbox.stats().total).toBe(0);
  });

  it.each([
    ['through ..', '../outside.csv'],
    ['by an absolute path', 'ABSOLUTE'],
    ['through a symbolic link', 'linked.csv'],
    ['through a symbolically linked folder', 'feeds/outside.csv'],
  ])('a source outside %s is refused in one line, exit 2', async (_how, source) => {
    const outside = join(pipeline.dir, 'a', 'outside.csv');
    const written = source === 'ABSOLUTE' ? outside : source;
    const { job, shop } = await project(`source: ${written}\ndryRun: true\n`);
    await writeCsv(join(pipeline.dir, 'a'), 'outside.csv', catalogRows(2));
    await symlink(outside, join(shop, 'linked.csv'));
    await symlink(join(pipeline.dir, 'a'), join(shop, 'feeds'));

    const result = await pipeline.cli(['run', '--job', job]);

    expect(result.code).toBe(2);
    expect(oneLine(result.stderr)).toContain(
      `nightly.yml: source: ${written} leads outside the job's folders`,
    );
    expect(pipeline.sandbox.stats().total).toBe(0);
  });

  it('--data-dir (or CATALOG_SYNC_DATA_DIR) names a further folder; a link inside the project is followed', async () => {
    const { job, shop } = await project('source: ../outside.csv\nreport: ../reports/r.csv\ndryRun: true\n');
    // The data folder holds the project here; it could be anywhere.
    await writeCsv(join(pipeline.dir, 'a'), 'outside.csv', catalogRows(2));

    const flag = await pipeline.cli(['run', '--job', job, '--data-dir', join(pipeline.dir, 'a')]);
    expect(flag.code, flag.stderr).toBe(0);
    expect(await readFile(join(pipeline.dir, 'a', 'reports', 'r.csv'), 'utf8')).toContain('row,key,action');

    const env = await pipeline.cli(['run', '--job', job], { CATALOG_SYNC_DATA_DIR: join(pipeline.dir, 'a') });
    expect(env.code, env.stderr).toBe(0);

    await writeCsv(shop, 'catalog.csv', catalogRows(2));
    await symlink(join(shop, 'catalog.csv'), join(shop, 'today.csv'));
    await writeFile(job, 'source: today.csv\ndryRun: true\n', 'utf8');
    const inside = await pipeline.cli(['run', '--job', job]);
    expect(inside.code, inside.stderr).toBe(0);
  });

  it('the report file is opened without following a link put there after the check', async () => {
    const victim = join(pipeline.dir, 'victim.txt');
    await writeFile(victim, 'kept\n', 'utf8');
    const report = join(pipeline.dir, 'report.csv');
    await symlink(victim, report);

    const writing = writeToFile(report, async (file) => void file.write('row,key\n'), { noFollow: true });

    await expect(writing).rejects.toThrow(`cannot write ${report}: it is a symbolic link`);
    expect(await readFile(victim, 'utf8')).toBe('kept\n');
  });

  it('a job file kept outside a jobs/ folder has its own folder only, not its parent (a home folder)', async () => {
    // <tmp>/home/alice/nightly.yml: its relative paths start from <tmp>/home/alice, the one folder it may reach.
    const alice = join(pipeline.dir, 'home', 'alice');
    await mkdir(join(pipeline.dir, 'home', 'bob'), { recursive: true });
    await mkdir(alice, { recursive: true });
    await writeCsv(alice, 'feed.csv', catalogRows(2));
    const job = join(alice, 'nightly.yml');
    await writeFile(job, 'source: feed.csv\nreport: ../bob/report.csv\ndryRun: true\n', 'utf8');

    const result = await pipeline.cli(['run', '--job', job]);

    expect(result.code).toBe(2);
    expect(oneLine(result.stderr)).toMatch(
      /nightly\.yml: report: \.\.\/bob\/report\.csv leads outside the job's folders/,
    );
    expect(existsSync(join(pipeline.dir, 'home', 'bob', 'report.csv'))).toBe(false);
    expect(pipeline.sandbox.stats().total).toBe(0);
  });

  it.each([
    ['a hidden file', '.bashrc.csv', /is a hidden file or in a hidden folder/],
    ['a file in a hidden folder', '.ci/run.csv', /is a hidden file or in a hidden folder/],
    ['a file that is not .csv', 'run.sh', /does not end in \.csv/],
    ['a file that can be run', 'tool.csv', /is a file that can be run/],
  ])('a report that is %s is refused, and the file is left as it was', async (_what, report, why) => {
    const { job, shop } = await project(`source: catalog.csv\nreport: ${report}\ndryRun: true\n`);
    await writeCsv(shop, 'catalog.csv', [{ sku: '$(touch pwned)', name: 'Lamp', price: '1.00' }]);
    await mkdir(join(shop, '.ci'), { recursive: true });
    await writeFile(join(shop, 'tool.csv'), '#!/bin/sh\necho kept\n', { mode: 0o755 });

    const result = await pipeline.cli(['run', '--job', job]);

    expect(result.code).toBe(2);
    expect(oneLine(result.stderr)).toMatch(why);
    expect(await readFile(join(shop, 'tool.csv'), 'utf8')).toBe('#!/bin/sh\necho kept\n');
    expect(existsSync(join(shop, report)) && report !== 'tool.csv').toBe(false);
    expect(pipeline.sandbox.stats().total).toBe(0);
  });

  it("a folder on the report's way swapped for a link after the check does not lead the write out", async () => {
    const folder = join(pipeline.dir, 'proj');
    const outside = join(pipeline.dir, 'outside');
    await mkdir(folder, { recursive: true });
    await mkdir(outside, { recursive: true });
    await writeFile(join(outside, 'r.csv'), 'kept\n', 'utf8');
    // The check saw proj/sub as a folder; it is now a link to a folder outside.
    await symlink(outside, join(folder, 'sub'));

    const writing = writeToFile(join(folder, 'sub', 'r.csv'), async (file) => void file.write('row,key\n'), {
      noFollow: true,
      within: [folder],
    });

    await expect(writing).rejects.toThrow(/it leads outside the job's folders/);
    expect(await readFile(join(outside, 'r.csv'), 'utf8')).toBe('kept\n');
    const made = writeToFile(join(folder, 'sub', 'new.csv'), async (file) => void file.write('x\n'), {
      noFollow: true,
      within: [folder],
    });
    await expect(made).rejects.toThrow(/it leads outside the job's folders/);
    expect(existsSync(join(outside, 'new.csv'))).toBe(false);
  });

  it('a report within its folders is written whole', async () => {
    const folder = join(pipeline.dir, 'proj2');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'r.csv'), 'an older and longer report\n', 'utf8');

    await writeToFile(join(folder, 'r.csv'), async (file) => void file.write('row,key\n'), {
      noFollow: true,
      within: [folder],
    });

    expect(await readFile(join(folder, 'r.csv'), 'utf8')).toBe('row,key\n');
  });
});
