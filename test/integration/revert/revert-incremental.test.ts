import { describe, expect, it } from 'vitest';
import type { CatalogRow } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { MAIN_SELLER, usePipeline } from '../support/pipeline.js';
import { nameAndPrice, putsSinceReset } from './support.js';

function catalog(b2Price: string, b2Name = 'Beta'): CatalogRow[] {
  return [
    { sku: 'A1', name: 'Alpha', price: '10.00' },
    { sku: 'B2', name: b2Name, price: b2Price },
  ];
}

describe('`revert` of an --incremental run that read no product', () => {
  const pipeline = usePipeline();

  /** The first --incremental run (it reads the products), then one that does not: B2 repriced. */
  async function blindRun(rows: CatalogRow[]) {
    const first = await pipeline.cli([
      'run',
      await pipeline.csv('s1a.csv', catalog('20.00')),
      '--incremental',
    ]);
    expect(first.code, first.stderr).toBe(0);
    pipeline.sandbox.resetStats();
    const blind = await pipeline.cli(['run', await pipeline.csv('s1b.csv', rows), '--incremental']);
    expect(blind.code, blind.stderr).toBe(0);
    expect(putsSinceReset(pipeline)).toHaveLength(1);
    const id = String(pipeline.products().find((product) => product.sku === 'B2')?.id);
    return { runId: runIdOf(blind.stdout), id };
  }

  it('puts back the value this tool last sent before the run, and says where it comes from', async () => {
    const { runId, id } = await blindRun(catalog('21.00'));
    pipeline.sandbox.resetStats();

    const result = await pipeline.cli(['revert', runId]);

    expect(result.code, result.stderr).toBe(0);
    expect(putsSinceReset(pipeline)).toEqual([{ id, body: { price: 20 }, status: 200 }]);
    expect(nameAndPrice(pipeline, 'B2')).toEqual({ name: 'Beta', price: 20 });
    expect(result.stdout.trim().split('\n')).toEqual([
      `product ${id} (B2): put back price 20 (as this tool last sent it: the run read no product)`,
      'reverted 1 product (1 field), 0 fields left alone, 0 created products listed',
    ]);
    // The memory is given back too: the file from before the run, run again, writes nothing.
    pipeline.sandbox.resetStats();
    const again = await pipeline.cli([
      'run',
      await pipeline.csv('s1a-again.csv', catalog('20.00')),
      '--incremental',
    ]);
    expect(again.code, again.stderr).toBe(0);
    expect(pipeline.sandbox.stats().total).toBe(0);
  });

  it('leaves a field alone that was edited on the marketplace since the run', async () => {
    const { runId, id } = await blindRun(catalog('21.00'));
    pipeline.sandbox.editProduct(MAIN_SELLER, id, { price: 25 });
    pipeline.sandbox.resetStats();

    const result = await pipeline.cli(['revert', runId]);

    expect(result.code, result.stderr).toBe(0);
    expect(putsSinceReset(pipeline)).toEqual([]);
    expect(result.stdout).toContain(`product ${id} (B2): price changed since the run: kept`);
  });
});
