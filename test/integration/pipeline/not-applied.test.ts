import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogRows, parseCsv } from '../support/catalog.js';
import { bySku, requestCounts, usePipeline } from '../support/pipeline.js';

/** Issue 14: a write the API answers 200 to but does not apply is said, per row and in the summary. */
describe('against an API that accepts a stock update and keeps the old stock (sandbox --ignore-on-update stock_level)', () => {
  const pipeline = usePipeline({ ignoreOnUpdate: ['stock_level'] });

  async function night(stock: string) {
    const rows = catalogRows(8).map((row) => ({ ...row, stock_level: stock }));
    const before = requestCounts(pipeline.sandbox.stats());
    const result = await pipeline.cli([
      'run',
      await pipeline.csv('catalog.csv', rows),
      '--report',
      join(pipeline.dir, 'report.csv'),
    ]);
    const after = requestCounts(pipeline.sandbox.stats());
    return {
      result,
      report: parseCsv(await pipeline.readText('report.csv')),
      updates: after.updates - before.updates,
    };
  }

  it('reports each row whose write was not applied, counts them, and does not write them again', async () => {
    expect((await night('5')).result.code).toBe(0);

    const changed = await night('0');

    expect(changed.updates).toBe(8);
    expect(changed.result.code).toBe(0);
    expect(changed.report.slice(0, 8).map((line) => line.note)).toEqual(
      Array(8).fill('accepted but not applied: the API still shows stock_level 5'),
    );
    expect(changed.result.stdout).toContain(
      '  not applied 8 rows: the API accepted the write but still shows',
    );
    expect(bySku(pipeline.products()).get('SKU-00001')?.stock_level).toBe('5');

    const again = await night('0');

    expect(again.updates).toBe(0);
    expect(again.report.slice(0, 8).map((line) => [line.action, line.note])).toEqual(
      Array(8).fill(['unchanged', 'accepted but not applied: the API still shows stock_level 5']),
    );
    expect(again.result.stdout).toContain('  not applied 8 rows');
  });

  it('`status` counts them, as text and in --json', async () => {
    await night('5');
    await night('0');

    const text = (await pipeline.cli(['status'])).stdout;
    const json = JSON.parse((await pipeline.cli(['status', '--json'])).stdout);

    expect(text).toContain(
      '  not applied 8 rows: the API accepted the write but still shows the old value (see the note column)',
    );
    expect(json.counts).toMatchObject({ updated: 8, notApplied: 8 });
  });

  it('says nothing once the source and the API agree again', async () => {
    await night('5');
    await night('0');

    const back = await night('5');

    expect(back.updates).toBe(0);
    expect(back.report.slice(0, 8).every((line) => line.note === '')).toBe(true);
    expect(back.result.stdout).not.toContain('not applied');
  });
});
