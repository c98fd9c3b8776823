import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogRows, parseCsv } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { MAIN_SELLER, requestCounts, usePipeline } from '../support/pipeline.js';

/** A user mistake is one line on stderr, exit 2, never a stack trace. */
function expectUsageLine(result: { code: number; stderr: string }, naming: RegExp): void {
  expect(result.code).toBe(2);
  const lines = result.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(naming);
}

describe('guards and --only on the command line', () => {
  const pipeline = usePipeline();

  it.each([
    [['--max-price-change', 'abc'], /--max-price-change takes a percentage such as 50%, not "abc"/],
    [['--max-invalid', '120%'], /--max-invalid takes N or P% with P up to 100, not "120%"/],
    [['--max-updates', '-3'], /--max-updates takes a row count .* not "-3"/],
    [['--only', 'both'], /--only takes create or update, not "both"/],
  ])('%j is one line and exit 2, before any request', async (flags, naming) => {
    const source = await pipeline.csv('catalog.csv', catalogRows(2));

    expectUsageLine(await pipeline.cli(['run', source, ...flags]), naming);
    expect(pipeline.sandbox.stats().total).toBe(0);
  });

  it('--only update: new rows are skipped with the reason, existing ones updated', async () => {
    const [id] = pipeline.sandbox.seedProducts(MAIN_SELLER, [{ sku: 'OLD', name: 'Old', price: 5 }]);
    const source = await pipeline.csv('catalog.csv', [
      { sku: 'OLD', name: 'Renamed', price: '5' },
      { sku: 'NEW', name: 'New', price: '7' },
    ]);

    const result = await pipeline.cli([
      'run',
      source,
      '--only',
      'update',
      '--report',
      join(pipeline.dir, 'r.csv'),
    ]);

    expect(result.code).toBe(0);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 1 });
    expect(parseCsv(await pipeline.readText('r.csv'))).toMatchObject([
      { row: '1', action: 'update', product_id: id, status: 'ok' },
      { row: '2', action: 'skipped', status: 'ok', error: 'not on the marketplace (--only update)' },
    ]);
  });

  it('--only create (from a job file): existing rows are skipped, new ones created', async () => {
    pipeline.sandbox.seedProducts(MAIN_SELLER, [{ sku: 'OLD', name: 'Old', price: 5 }]);
    await pipeline.csv('catalog.csv', [
      { sku: 'OLD', name: 'Renamed', price: '5' },
      { sku: 'NEW', name: 'New', price: '7' },
    ]);
    await mkdir(join(pipeline.dir, 'jobs'), { recursive: true });
    const job = join(pipeline.dir, 'jobs', 'nightly.yml');
    await writeFile(job, 'source: catalog.csv\nonly: create\nmaxInvalid: 10\n', 'utf8');

    const result = await pipeline.cli(['run', '--job', job]);

    expect(result.code).toBe(0);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 1, updates: 0 });
    const report = parseCsv((await pipeline.cli(['report', runIdOf(result.stdout)])).stdout);
    expect(report[0]).toMatchObject({
      action: 'skipped',
      error: 'already on the marketplace (--only create)',
    });
    const status = JSON.parse((await pipeline.cli(['status', '--json'])).stdout);
    expect(status).toMatchObject({ only: 'create', maxInvalid: '10' });
  });

  it('a job file with a bad guard or only: one line naming the key, exit 2', async () => {
    await pipeline.csv('catalog.csv', catalogRows(1));
    await mkdir(join(pipeline.dir, 'jobs'), { recursive: true });
    const job = join(pipeline.dir, 'jobs', 'nightly.yml');
    await writeFile(job, 'source: catalog.csv\nmaxInvalid: 120%\n', 'utf8');
    expectUsageLine(await pipeline.cli(['run', '--job', job]), /nightly\.yml: maxInvalid: must be/);
    await writeFile(job, 'source: catalog.csv\nonly: both\n', 'utf8');
    expectUsageLine(await pipeline.cli(['run', '--job', job]), /nightly\.yml: only:/);
  });

  describe('approve: one line and exit 2', () => {
    it('for an unknown run id', async () => {
      expectUsageLine(
        await pipeline.cli(['approve', '20990101T000000-abcdef']),
        /no run 20990101T000000-abcdef/,
      );
    });

    it('for a run that holds nothing', async () => {
      const result = await pipeline.cli(['run', await pipeline.csv('c.csv', catalogRows(2))]);

      expectUsageLine(
        await pipeline.cli(['approve', runIdOf(result.stdout)]),
        /run \S+ holds nothing to approve \(it is done\)/,
      );
    });

    it('for --rows naming a row that is not held, or no row number', async () => {
      const rows = [...catalogRows(2), { sku: 'BAD', name: 'x', price: 'abc' }];
      const held = await pipeline.cli(['run', await pipeline.csv('c.csv', rows), '--max-invalid', '0']);
      expect(held.code).toBe(5);
      const runId = runIdOf(held.stdout);

      expectUsageLine(await pipeline.cli(['approve', runId, '--rows', '3']), /row 3 of run \S+ is not held/);
      expectUsageLine(await pipeline.cli(['approve', runId, '--rows', '9']), /row 9 of run \S+ is not held/);
      expectUsageLine(await pipeline.cli(['approve', runId, '--rows', 'x']), /--rows takes data row numbers/);
      expect(pipeline.products()).toEqual([]);
    });
  });
});
