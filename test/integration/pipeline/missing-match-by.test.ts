import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CatalogRow } from '../support/catalog.js';
import { parseCsv } from '../support/catalog.js';
import { bySku, requestCounts, usePipeline } from '../support/pipeline.js';

/**
 * CONTRACT, `--missing`: "when such a product returns, those fields get their former values back".
 * The product is the same whichever field the run that finds it again matches by: one deactivated by
 * a run matching by `sku` that comes back in a feed matched by `name` is that product returning.
 */
describe('--missing: a deactivated product returning under another --match-by', () => {
  const pipeline = usePipeline();
  const MISSING = ['--missing', 'quantity=0', '--max-missing', '100%'];

  /** `run` of these rows (only `columns` written), its report read back. */
  async function run(name: string, rows: CatalogRow[], columns: string[], ...args: string[]) {
    pipeline.sandbox.resetStats();
    const source = await pipeline.csv(`${name}.csv`, rows, columns);
    const report = join(pipeline.dir, `${name}.report.csv`);
    const result = await pipeline.cli(['run', source, '--report', report, ...args]);
    expect(result.stderr).toBe('');
    const lines = parseCsv(await pipeline.readText(`${name}.report.csv`).catch(() => ''));
    return { ...result, lines, writes: requestCounts(pipeline.sandbox.stats()) };
  }

  const FRUIT = [
    { sku: 'A1', name: 'Apple', price: '10', quantity: '5' },
    { sku: 'A2', name: 'Banana', price: '20', quantity: '6' },
    { sku: 'A3', name: 'Cherry', price: '30', quantity: '7' },
  ];

  it('gets its former values back, noted reactivated, and the record is done with', async () => {
    const all = ['sku', 'name', 'price', 'quantity'];
    expect((await run('c3', FRUIT, all)).code).toBe(0);
    const gone = await run('c2', FRUIT.slice(0, 2), all, ...MISSING);
    expect(gone.code).toBe(0);
    expect(bySku(pipeline.products()).get('A3')?.quantity).toBe(0);
    const cherry = String(pipeline.products().find((product) => product.sku === 'A3')?.id);

    const back = await run('nn', FRUIT, ['name', 'price'], '--match-by', 'name');
    expect(back.code).toBe(0);
    expect(back.lines.find((line) => line.key === 'Cherry')).toMatchObject({
      row: '3',
      action: 'update',
      product_id: cherry,
      status: 'ok',
      note: 'reactivated',
    });
    expect(back.writes).toMatchObject({ creates: 0, updates: 1 });
    expect(bySku(pipeline.products()).get('A3')?.quantity).toBe(7);

    // Back under sku too: nothing more to give back.
    const again = await run('c3-again', FRUIT, all);
    expect(again.writes).toMatchObject({ creates: 0, updates: 0 });
    expect(again.lines.find((line) => line.key === 'A3')).toMatchObject({ action: 'unchanged', note: '' });
  });

  it('one that had no value before says it stays off, under the other field too', async () => {
    const noQuantity = ['sku', 'name', 'price'];
    expect((await run('c3', FRUIT, noQuantity)).code).toBe(0);
    expect((await run('c2', FRUIT.slice(0, 2), noQuantity, ...MISSING)).code).toBe(0);

    const back = await run('nn', FRUIT, ['name', 'price'], '--match-by', 'name', ...MISSING);
    expect(back.code).toBe(0);
    expect(back.lines.find((line) => line.key === 'Cherry')?.note).toMatch(
      /^quantity stays 0 \(set by --missing on \d{4}-\d{2}-\d{2}; it had no value before\): give it a value in the source$/,
    );
    expect(back.stdout).toContain('  still off 1 product back in the source keeps a value --missing set');
  });
});
