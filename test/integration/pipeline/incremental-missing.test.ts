import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CatalogRow, catalogRows, parseCsv } from '../support/catalog.js';
import { bySku, MAIN_SELLER, requestCounts, usePipeline } from '../support/pipeline.js';

/**
 * An `--incremental` run that reads the seller's products records every listed one, so that a later
 * `--incremental` run updates a product made by hand rather than creating it again. That record must
 * not make the hand-made products "managed": `--missing` deactivates only products this tool
 * created or matched from its source (docs/running.md, Night after night).
 */
describe('--missing after an --incremental full read', () => {
  const pipeline = usePipeline();

  const FEED = catalogRows(10).map((row) => ({ ...row, stock_level: '5' }));
  const HAND = { sku: 'HAND', name: 'Hand made', price: '5.00', stock_level: '4' };

  async function night(name: string, rows: CatalogRow[], ...args: string[]) {
    pipeline.sandbox.resetStats();
    const report = join(pipeline.dir, `${name}.report.csv`);
    const source = await pipeline.csv(`${name}.csv`, rows);
    const result = await pipeline.cli(['run', source, '--report', report, ...args]);
    expect(result.code, result.stderr).toBe(0);
    const lines = parseCsv(await pipeline.readText(`${name}.report.csv`));
    return { lines, counts: requestCounts(pipeline.sandbox.stats()) };
  }

  const lineOf = (lines: Array<Record<string, string>>, key: string) =>
    lines.filter((line) => line.key === key).map((line) => [line.action, line.status]);

  it('leaves a hand-made product alone, in the reading run and the nights after, and still updates it once the source has it', async () => {
    pipeline.sandbox.seedProducts(MAIN_SELLER, [{ ...HAND, price: 5 }]);

    // The first --incremental run reads the products (and records them), --missing given.
    const first = await night('first', FEED, '--incremental', '--missing', 'stock_level=0');
    expect(first.counts).toMatchObject({ creates: 10, updates: 0 });
    expect(lineOf(first.lines, 'HAND')).toEqual([['missing', 'ok']]);

    // A night without --incremental, one product dropped: that one is deactivated, HAND is not.
    const second = await night('second', FEED.slice(0, 9), '--missing', 'stock_level=0');
    expect(second.counts).toMatchObject({ creates: 0, updates: 1 });
    expect(lineOf(second.lines, 'HAND')).toEqual([['missing', 'ok']]);
    expect(lineOf(second.lines, 'SKU-00010')).toEqual([['deactivate', 'ok']]);
    const products = bySku(pipeline.products());
    expect(products.get('HAND')?.stock_level).toBe('4');
    expect(products.get('SKU-00010')?.stock_level).toBe('0');

    // The seller puts HAND in the feed: the record still knows it, so it is updated, not created.
    const third = await night('third', [...FEED, { ...HAND, stock_level: '7' }], '--incremental');
    expect(third.counts.creates).toBe(0);
    expect(pipeline.products().filter((product) => product.sku === 'HAND')).toHaveLength(1);
    expect(bySku(pipeline.products()).get('HAND')?.stock_level).toBe('7');
  });
});
