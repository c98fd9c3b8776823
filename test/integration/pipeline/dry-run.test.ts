import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogRows, parseCsv } from '../support/catalog.js';
import { MAIN_SELLER, requestCounts, usePipeline } from '../support/pipeline.js';

describe('a run with --dry-run', () => {
  const pipeline = usePipeline();

  async function planAgainstSeededSeller() {
    const [unchangedId, changedId] = pipeline.sandbox.seedProducts(MAIN_SELLER, [
      { sku: 'KEEP', name: 'Unchanged', price: 10 },
      { sku: 'EDIT', name: 'Old name', price: 20 },
    ]);
    const source = await pipeline.csv('catalog.csv', [
      { sku: 'KEEP', name: 'Unchanged', price: '10.00' },
      { sku: 'EDIT', name: 'New name', price: '20' },
      { sku: 'NEW', name: 'Brand new', price: '30.5' },
    ]);
    const before = pipeline.products();
    pipeline.sandbox.resetStats();
    const result = await pipeline.cli([
      'run',
      source,
      '--dry-run',
      '--report',
      join(pipeline.dir, 'plan.csv'),
    ]);
    return { result, before, unchangedId, changedId };
  }

  it('sends no create and no update, and changes nothing on the marketplace', async () => {
    const { result, before } = await planAgainstSeededSeller();

    expect(result.code).toBe(0);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
    expect(pipeline.sandbox.stats().writesApplied).toBe(0);
    expect(pipeline.products()).toEqual(before);
  });

  it('writes the plan as the report: planned creates and updates, and the unchanged rows', async () => {
    const { unchangedId, changedId } = await planAgainstSeededSeller();

    const report = parseCsv(await pipeline.readText('plan.csv'));

    expect(report).toEqual([
      {
        row: '1',
        key: 'KEEP',
        action: 'unchanged',
        product_id: unchangedId,
        status: 'ok',
        error: '',
        note: '',
      },
      {
        row: '2',
        key: 'EDIT',
        action: 'update',
        product_id: changedId,
        status: 'planned',
        error: '',
        note: '',
      },
      { row: '3', key: 'NEW', action: 'create', product_id: '', status: 'planned', error: '', note: '' },
    ]);
  });

  it('says in its summary that nothing was written, and what would be', async () => {
    const { result } = await planAgainstSeededSeller();

    expect(result.stdout).toMatch(/^run \S+ \(dry run: nothing written\): done/m);
    expect(result.stdout).toContain(
      'rows      3: 1 to create, 1 to update, 1 unchanged, 0 invalid, 0 failed',
    );
  });

  it('says the requests the plan needs and, with --daily-budget, the days that takes (issue 14)', async () => {
    const rows = catalogRows(300);
    const source = await pipeline.csv('migration.csv', rows);

    const unknown = await pipeline.cli(['run', source, '--dry-run']);
    expect(unknown.stdout).toContain(
      'requests  301 needed (1 read, 300 writes); the daily limit is not known (--daily-budget N tells it)',
    );

    const budgeted = await pipeline.cli(['run', source, '--dry-run', '--daily-budget', '50']);
    expect(budgeted.code).toBe(0);
    expect(budgeted.stdout).toContain(
      'requests  301 needed (1 read, 300 writes), 50 a day (--daily-budget): 7 days',
    );
    expect(requestCounts(pipeline.sandbox.stats()).creates).toBe(0);
  });

  it('counts the --missing deactivations it plans among the writes it needs, as the real run sends them', async () => {
    const rows = catalogRows(20).map((row) => ({ ...row, quantity: '5' }));
    expect((await pipeline.cli(['run', await pipeline.csv('all.csv', rows)])).code).toBe(0);
    // Two products gone from the feed: two PUTs of quantity 0.
    const source = await pipeline.csv('fewer.csv', rows.slice(2));
    const missing = ['--missing', 'quantity=0'];

    const planned = await pipeline.cli(['run', source, ...missing, '--dry-run', '--daily-budget', '30']);

    expect(planned.stdout).toContain('deactivate 2 to deactivate');
    expect(planned.stdout).toContain(
      'requests  3 needed (1 read, 2 writes), 30 a day (--daily-budget): 1 day',
    );
    const real = await pipeline.cli(['run', source, ...missing]);
    expect(real.stdout).toContain('deactivate 2 deactivated');
    expect(real.stdout).toContain('requests  3 (2 writes)');
  });

  it('leaves the next real run to do the whole work', async () => {
    await planAgainstSeededSeller();
    pipeline.sandbox.resetStats();

    const real = await pipeline.cli([
      'run',
      await pipeline.csv('again.csv', [
        { sku: 'KEEP', name: 'Unchanged', price: '10.00' },
        { sku: 'EDIT', name: 'New name', price: '20' },
        { sku: 'NEW', name: 'Brand new', price: '30.5' },
      ]),
    ]);

    expect(real.stdout).toContain('rows      3: 1 created, 1 updated, 1 unchanged');
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 1, updates: 1 });
  });
});
