import { describe, expect, it } from 'vitest';
import type { CatalogRow } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { bySku, MAIN_SELLER, runReported, usePipeline } from '../support/pipeline.js';

/**
 * docs/running.md, Night after night: a product back in the source gets its former values back. A
 * revert of the night that deactivated it gave them back already: the product is no longer one that
 * `--missing` turned off, and a later run neither says `reactivated` nor sends those values again
 * over what the seller set since.
 */
describe('`revert` of a `--missing` deactivation ends the product’s deactivated state', () => {
  const pipeline = usePipeline();
  const ROWS: CatalogRow[] = [
    { sku: 'A1', name: 'Mug', price: '1', quantity: '3' },
    { sku: 'B2', name: 'Cup', price: '2', quantity: '6' },
    { sku: 'C3', name: 'Jar', price: '3', quantity: '21' },
  ];
  const quantityOf = (sku: string) => bySku(pipeline.products()).get(sku)?.quantity;

  it('a later run leaves the quantity the seller set after the revert', async () => {
    expect((await runReported(pipeline, ROWS)).result.code).toBe(0);
    const gone = await runReported(pipeline, ROWS.slice(0, 2), [
      '--missing',
      'quantity=0',
      '--max-missing',
      '90%',
    ]);
    expect(gone.result.code, gone.result.stderr).toBe(0);
    expect(quantityOf('C3')).toBe(0);
    const reverted = await pipeline.cli(['revert', runIdOf(gone.result.stdout)]);
    expect(reverted.code, reverted.stderr).toBe(0);
    expect(quantityOf('C3')).toBe(21);
    const c3 = pipeline.products().find((product) => product.sku === 'C3');
    pipeline.sandbox.editProduct(MAIN_SELLER, String(c3?.id), { quantity: 5 });

    // The whole catalog again, without a quantity column and without --missing.
    const noQuantity = ROWS.map(({ quantity: _q, ...row }) => row);
    const later = await runReported(pipeline, noQuantity);

    expect(later.result.code, later.result.stderr).toBe(0);
    // Before: `update,ok,reactivated; quantity changed on the marketplace: sent again`, and 21 over the 5.
    expect(later.lines.find((line) => line.key === 'C3')).toMatchObject({
      action: 'unchanged',
      status: 'ok',
      note: '',
    });
    expect(later.writes.updates).toBe(0);
    expect(quantityOf('C3')).toBe(5);
  });
});
