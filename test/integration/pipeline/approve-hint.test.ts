import { describe, expect, it } from 'vitest';
import { catalogRows, fourPricedRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';

/**
 * The hint a run holding only deactivations gives: they have no row number, `--rows` is refused.
 * It carries the run's base URL (approve-as-printed.test.ts: it works from an empty environment).
 */
const deactivationsHint = (runId: string, baseUrl: string) =>
  `  approve   catalog-sync approve ${runId} --base-url ${baseUrl}   (sends the held deactivations)\n`;

describe('the `approve` hint of a run that holds deactivations and no row', () => {
  const pipeline = usePipeline();

  it('held by --max-missing alone: the summary and `status` suggest no --rows', async () => {
    const feed = catalogRows(10).map((row) => ({ ...row, stock_level: '5' }));
    expect((await pipeline.cli(['run', await pipeline.csv('all.csv', feed)])).code).toBe(0);
    // 4 of 10 gone, more than the default --max-missing 20%: held, and no row is (none changed).
    const held = await pipeline.cli([
      'run',
      await pipeline.csv('six.csv', feed.slice(0, 6)),
      '--missing',
      'stock_level=0',
    ]);
    expect(held.code, held.stdout + held.stderr).toBe(5);
    const runId = runIdOf(held.stdout);

    const status = await pipeline.cli(['status', runId]);

    // Before: `(sends the held writes; --rows 3,7 for some)` and `[--rows 3,7,…]`, while
    // `approve --rows 5` is refused (`row 5 … is not held`).
    expect(held.stdout).toContain(deactivationsHint(runId, pipeline.sandbox.baseUrl));
    expect(status.stdout).toContain(deactivationsHint(runId, pipeline.sandbox.baseUrl));
    expect(held.stdout + status.stdout).not.toContain('--rows');
  });

  it('after `approve --rows` sent every held row: the summary and `status` suggest no --rows', async () => {
    expect((await pipeline.cli(['run', await pipeline.csv('first.csv', fourPricedRows(0))])).code).toBe(0);
    // R-1's price ×12 held by the row guard; R-4 gone: its deactivation held with the run.
    const [r1, r2, r3] = fourPricedRows(0);
    const rows = [{ ...r1!, price: '120' }, r2!, r3!];
    const guards = ['--missing', 'quantity=0', '--max-missing', '50%', '--max-price-change', '50%'];
    const held = await pipeline.cli(['run', await pipeline.csv('second.csv', rows), ...guards]);
    expect(held.code, held.stdout + held.stderr).toBe(5);
    const runId = runIdOf(held.stdout);
    expect(held.stdout).toContain('--rows 3,7 for some');

    const approved = await pipeline.cli(['approve', runId, '--rows', '1']);
    const status = await pipeline.cli(['status', runId]);

    expect(approved.code).toBe(5);
    expect(approved.stdout).toContain(deactivationsHint(runId, pipeline.sandbox.baseUrl));
    expect(status.stdout).toContain(deactivationsHint(runId, pipeline.sandbox.baseUrl));
    expect(approved.stdout + status.stdout).not.toContain('--rows 3,7');
    expect((await pipeline.cli(['approve', runId])).code).toBe(0);
  });
});
