import { describe, expect, it } from 'vitest';
import { type CatalogRow, parseCsv } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { bySku, usePipeline } from '../support/pipeline.js';

/** P1…P5 at 11.50…15.50, quantity 3i. */
function catalog(): CatalogRow[] {
  return Array.from({ length: 5 }, (_, i) => ({
    sku: `P${i + 1}`,
    name: `Product ${i + 1}`,
    price: `${i + 11}.50`,
    quantity: String(3 * (i + 1)),
  }));
}

/**
 * A held row is superseded only by a later run that wrote that product (or found it as its source
 * says): a later run that never wrote it (cancelled before a worker took it, the row invalid, the
 * field not sent, the run refused) leaves the approved write to be sent.
 */
describe('approve: a later run that did not write the product does not supersede it', () => {
  const pipeline = usePipeline();

  /** The catalog synced, then P5's price 15.50 → 45.00 held by --max-price-change 50%. */
  async function heldRun(): Promise<string> {
    const rows = catalog();
    expect((await pipeline.cli(['run', await pipeline.csv('n1.csv', rows)])).code).toBe(0);
    const moved = rows.map((row) => (row.sku === 'P5' ? { ...row, price: '45.00' } : row));
    const held = await pipeline.cli(['run', await pipeline.csv('h.csv', moved), '--max-price-change', '50%']);
    expect(held.code).toBe(5);
    return runIdOf(held.stdout);
  }

  async function approvedWrites(heldId: string): Promise<void> {
    const approved = await pipeline.cli(['approve', heldId]);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout.split('\n')[0]).toBe(`approved 1 held row of run ${heldId}`);
    expect(bySku(pipeline.products()).get('P5')?.price).toBe(45);
    const report = parseCsv((await pipeline.cli(['report', heldId])).stdout);
    expect(report[4]).toMatchObject({ key: 'P5', action: 'update', status: 'ok' });
  }

  it('a later run imported and cancelled before any worker took it', async () => {
    const heldId = await heldRun();
    const source = await pipeline.csv('l3.csv', [
      { sku: 'P5', name: 'Product 5', price: '45.00', quantity: '15' },
    ]);
    const imported = await pipeline.cli(['import', source]);
    expect(imported.code).toBe(0);
    const laterId = runIdOf(imported.stdout);
    // Queued, its write still to come (or not): an approve now would race it, and is refused.
    const early = await pipeline.cli(['approve', heldId]);
    expect(early.code).toBe(2);
    expect(early.stderr).toContain(
      `run ${laterId} of the seller is still to write a product run ${heldId} holds: approve once it has ended`,
    );
    expect(bySku(pipeline.products()).get('P5')?.price).toBe(15.5);
    expect((await pipeline.cli(['cancel', laterId])).code).toBe(0);

    await approvedWrites(heldId);
  });

  it('a later run in which the row was invalid', async () => {
    const heldId = await heldRun();
    const source = await pipeline.csv('l2.csv', [
      { sku: 'P5', name: 'Product 5', price: 'abc', quantity: '15' },
    ]);
    expect((await pipeline.cli(['run', source, '--only', 'create'])).code).toBe(1);

    await approvedWrites(heldId);
  });

  it('a later run that did not send the held field (--fields name)', async () => {
    const heldId = await heldRun();
    const source = await pipeline.csv('l1.csv', [{ sku: 'P5', name: 'Product Five' } as CatalogRow]);
    expect((await pipeline.cli(['run', source, '--fields', 'name'])).code).toBe(0);

    await approvedWrites(heldId);
    expect(bySku(pipeline.products()).get('P5')?.name).toBe('Product Five');
  });

  it('a later run refused with exit 2 (--missing on a field no product has): no write, no supersede, a true record', async () => {
    const heldId = await heldRun();
    const moved = catalog().map((row) => (row.sku === 'P5' ? { ...row, price: '45.00' } : row));
    const refused = await pipeline.cli(['run', await pipeline.csv('h2.csv', moved), '--missing', 'stock=0']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--missing: stock: no product has it');
    // `status` without an id: the latest run, the refused one.
    const status = JSON.parse((await pipeline.cli(['status', '--json'])).stdout);
    expect(status.stateText).toBe(
      'refused: --missing: stock: no product has it; the stock field is quantity',
    );
    expect(status.missingNotApplied).toBe(
      'the run was refused: --missing: stock: no product has it; the stock field is quantity',
    );

    await approvedWrites(heldId);
  });
});
