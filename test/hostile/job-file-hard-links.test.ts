import { link, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogRows, writeCsv } from '../integration/support/catalog.js';
import { usePipeline } from '../integration/support/pipeline.js';

/**
 * A job file's `report: data/hard.csv`, a hard link to a file outside the project, was written in
 * place: the file outside was overwritten. Its `source` hard-linked to a file outside was read. A
 * hard link carries no folder: the file may as well be outside, so a job file never names one.
 */
describe("a job file's path with other hard links", () => {
  const pipeline = usePipeline();

  async function project(jobText: string): Promise<{ job: string; shop: string; outside: string }> {
    const shop = join(pipeline.dir, 'a', 'shop');
    await mkdir(join(shop, 'jobs'), { recursive: true });
    await mkdir(join(shop, 'data'), { recursive: true });
    const job = join(shop, 'jobs', 'b1.yml');
    await writeFile(job, jobText, 'utf8');
    return { job, shop, outside: join(pipeline.dir, 'outside.csv') };
  }

  function oneLine(stderr: string): string {
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    return lines[0] as string;
  }

  it('a report with other hard links is refused in one line, exit 2, the file outside kept', async () => {
    const { job, shop, outside } = await project('source: catalog.csv\nreport: data/hard.csv\n');
    await writeCsv(shop, 'catalog.csv', catalogRows(2));
    await writeFile(outside, 'kept\n', 'utf8');
    await link(outside, join(shop, 'data', 'hard.csv'));

    const result = await pipeline.cli(['run', '--job', job, '--dry-run']);

    expect(result.code).toBe(2);
    expect(oneLine(result.stderr)).toMatch(
      /^catalog-sync: b1\.yml: report: data\/hard\.csv has other hard links: it may be a file outside the folder/,
    );
    expect(await readFile(outside, 'utf8')).toBe('kept\n');
    expect(pipeline.sandbox.stats().total).toBe(0);
  });

  it('a source with other hard links is refused in one line, exit 2, nothing read or sent', async () => {
    const { job, shop, outside } = await project('source: data/hard.csv\n');
    await writeCsv(pipeline.dir, 'outside.csv', catalogRows(2));
    await link(outside, join(shop, 'data', 'hard.csv'));

    const result = await pipeline.cli(['run', '--job', job, '--dry-run']);

    expect(result.code).toBe(2);
    expect(oneLine(result.stderr)).toMatch(
      /^catalog-sync: b1\.yml: source: data\/hard\.csv has other hard links: it may be a file outside the folder/,
    );
    expect(pipeline.sandbox.stats().total).toBe(0);
  });

  it('a report given with --report on the command line is still written in place', async () => {
    const { job, shop, outside } = await project('source: catalog.csv\n');
    await writeCsv(shop, 'catalog.csv', catalogRows(2));
    await writeFile(outside, 'old\n', 'utf8');
    await link(outside, join(shop, 'data', 'hard.csv'));

    const result = await pipeline.cli([
      'run',
      '--job',
      job,
      '--dry-run',
      '--report',
      join(shop, 'data', 'hard.csv'),
    ]);

    expect(result.code).toBe(0);
    expect(await readFile(outside, 'utf8')).not.toBe('old\n');
  });
});
