import { describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { requestCounts, usePipeline } from '../support/pipeline.js';

/** Issue 11: what the tool did to a row, and a field the source dropped, reach the summary. */
describe('the summary of a run', () => {
  const pipeline = usePipeline();

  it('counts the rows that carry a note', async () => {
    const rows = catalogRows(3).map((row, i) => ({
      ...row,
      barcode: i === 1 ? '3.65E+11' : '4006381333931',
    }));
    const result = await pipeline.cli(['run', await pipeline.csv('catalog.csv', rows)]);

    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      "  notes     1 row carries a note: what the tool did beyond the action (report's note column)",
    );
    expect(result.stdout).toContain('  requests  4 (3 writes)\n');
  });

  it('says in one line which fields earlier runs sent that this source no longer has', async () => {
    const rows = catalogRows(3);
    expect((await pipeline.cli(['run', await pipeline.csv('full.csv', rows)])).code).toBe(0);

    const result = await pipeline.cli(['run', await pipeline.csv('no-price.csv', rows, ['sku', 'name'])]);

    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      '  absent    price: sent by earlier runs, not in this source (left as they are on the marketplace)',
    );
    expect(requestCounts(pipeline.sandbox.stats()).updates).toBe(0);
  });

  it('says nothing of fields left out on purpose with --fields, nor on a first run', async () => {
    const rows = catalogRows(3);
    const first = await pipeline.cli(['run', await pipeline.csv('full.csv', rows)]);
    expect(first.stdout).not.toContain('absent');

    const result = await pipeline.cli(['run', await pipeline.csv('full.csv', rows), '--fields', 'sku,name']);

    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('absent');
  });
});
