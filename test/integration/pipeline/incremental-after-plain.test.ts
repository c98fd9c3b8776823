import { describe, expect, it } from 'vitest';
import { expectExactCatalog } from '../failures/support/exact-catalog.js';
import { type CatalogRow, catalogRows } from '../support/catalog.js';
import { MAIN_SELLER, requestCounts, usePipeline } from '../support/pipeline.js';

/**
 * A run without `--incremental` reads the seller's products but does not become the record an
 * `--incremental` run relies on. A product it found that the record lacks (made by hand on the
 * marketplace since the record's full read) must not be created again by the next `--incremental` run.
 */
describe('--incremental after a run without it that read products the record lacks', () => {
  const pipeline = usePipeline({ normalize: true });

  async function run(name: string, rows: CatalogRow[], ...args: string[]) {
    pipeline.sandbox.resetStats();
    const result = await pipeline.cli(['run', await pipeline.csv(name, rows), ...args]);
    expect(result.code, result.stderr).toBe(0);
    return { stdout: result.stdout, requests: requestCounts(pipeline.sandbox.stats()) };
  }

  /** Made by hand through the API, as a seller would: the tool neither created nor recorded it. */
  function makeByHand(row: CatalogRow) {
    pipeline.sandbox.seedProducts(MAIN_SELLER, [{ ...row, price: Number(row.price) }]);
  }

  it('a product the plain run matched (unchanged) is not created again', async () => {
    const rows = catalogRows(3);
    await run('night1.csv', rows, '--incremental');
    const [byHand] = catalogRows(1, 50) as [CatalogRow];
    makeByHand(byHand);

    const plain = await run('night2.csv', [...rows, byHand]);
    expect(plain.requests.creates + plain.requests.updates).toBe(0);

    const next = await run('night3.csv', [...rows, byHand], '--incremental');

    expect(next.requests.creates).toBe(0);
    expect(next.stdout).toMatch(
      /^ {2}incremental products read: a run without --incremental \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\) found products this tool's record lacks$/m,
    );
    expectExactCatalog(pipeline.products(), [...rows, byHand]);
    // Read and recorded: the night after relies on the record again, and sends nothing.
    const after = await run('night4.csv', [...rows, byHand], '--incremental');
    expect(after.requests.total).toBe(0);
  });

  it('a product the plain run listed but the source did not hold yet is not created when it comes', async () => {
    const rows = catalogRows(3);
    await run('night1.csv', rows, '--incremental');
    const [byHand] = catalogRows(1, 50) as [CatalogRow];
    makeByHand(byHand);
    await run('night2.csv', rows);

    const next = await run('night3.csv', [...rows, byHand], '--incremental');

    expect(next.requests.creates).toBe(0);
    expectExactCatalog(pipeline.products(), [...rows, byHand]);
  });

  it('a plain run that found nothing the record lacks leaves the record to rely on', async () => {
    const rows = catalogRows(3);
    await run('night1.csv', rows, '--incremental');
    await run('night2.csv', rows);

    const next = await run('night3.csv', rows, '--incremental');

    expect(next.requests.total).toBe(0);
    expect(next.stdout).toContain("incremental no product read: relied on this tool's record");
  });
});
