import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogRows } from '../integration/support/catalog.js';
import { usePipeline } from '../integration/support/pipeline.js';

/**
 * Issue 32, point 3 (in part): a job file lifted its own address rule with `allowPrivateSource: true`.
 * The options that lift a safety rule are the operator's: a job file naming one is refused in one
 * line saying which flag to pass, before anything is read or sent.
 */
describe('a job file never lifts a safety rule', () => {
  const pipeline = usePipeline();

  it.each([
    ['allowPrivateSource: true', '--allow-private-source'],
    ['allowInsecure: true', '--allow-insecure'],
    ['allowEviction: true', '--allow-eviction'],
    ['force: true', '--force'],
    ['dataDir: /', '--data-dir'],
    ['keysFile: keys.env', '--keys-file'],
  ])('%s is one line naming %s, exit 2, before any request', async (line, flag) => {
    await pipeline.csv('catalog.csv', catalogRows(2));
    await mkdir(join(pipeline.dir, 'jobs'));
    const job = join(pipeline.dir, 'jobs', 'nightly.yml');
    await writeFile(job, `source: catalog.csv\n${line}\n`, 'utf8');

    const result = await pipeline.cli(['run', '--job', job]);

    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      `catalog-sync: nightly.yml: ${line.split(':')[0]}: a job file cannot lift a safety rule: pass ${flag} on the command line`,
    ]);
    expect(pipeline.sandbox.stats().total).toBe(0);
  });

  it('the same job, the flag on the command line: the operator lifts the rule', async () => {
    await pipeline.csv('catalog.csv', catalogRows(2));
    await mkdir(join(pipeline.dir, 'jobs'));
    const job = join(pipeline.dir, 'jobs', 'nightly.yml');
    await writeFile(job, 'source: catalog.csv\ndryRun: true\n', 'utf8');

    const result = await pipeline.cli(['run', '--job', job, '--allow-private-source', '--force']);

    expect(result.code, result.stderr).toBe(0);
  });
});
