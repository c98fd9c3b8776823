import { describe, expect, it } from 'vitest';
import { type CatalogRow, catalogRows, priceNumber } from '../support/catalog.js';
import { MAIN_SELLER, requestCounts, runReported, usePipeline } from '../support/pipeline.js';

/** Three products with a stock of their own, so that a deactivation (`--missing stock_level=0`) is seen. */
const FEED = catalogRows(3).map((row) => ({ ...row, stock_level: '4' }));
// Above the share one product of three is: the guard is not what is tested here.
const MISSING = ['--missing', 'stock_level=0', '--max-missing', '50%'];

/**
 * Two products on the marketplace under one key (a SKU): made by hand beside the tool's own, or
 * given by hand to another product the tool manages. The product the id map records under the key
 * is the key's; the other is never written for that key's row, nor deactivated while the source
 * holds the key.
 */
describe('two products on the marketplace under one key', () => {
  const pipeline = usePipeline();

  async function run(rows: CatalogRow[], ...args: string[]) {
    pipeline.sandbox.resetStats();
    const result = await pipeline.cli(['run', await pipeline.csv('feed.csv', rows), ...args]);
    expect(result.code, result.stderr).toBe(0);
    return requestCounts(pipeline.sandbox.stats());
  }

  const product = (id: string) => pipeline.products().find((p) => String(p.id) === id);

  it("one made by hand beside the tool's own: the tool's is written, the other said once a night, neither deactivated", async () => {
    await run(FEED, '--incremental');
    const extra = { ...(catalogRows(1, 50)[0] as CatalogRow), stock_level: '6' };
    const [handId] = pipeline.sandbox.seedProducts(MAIN_SELLER, [
      { sku: extra.sku, name: 'By hand', price: 5 },
    ]);
    // Relying on its record, --incremental does not see it (docs/options.md) and creates its own.
    expect((await run([...FEED, extra], '--incremental')).creates).toBe(1);
    const ownId = String(pipeline.products().find((p) => p.sku === extra.sku && String(p.id) !== handId)?.id);

    // A plain run, an --incremental one that reads (and records every listed product), a plain one.
    for (const args of [MISSING, ['--incremental', '--full-read-after', '1ms', ...MISSING], MISSING]) {
      const night = await runReported(pipeline, [...FEED, extra], args);

      expect(night.result.code, night.result.stderr).toBe(0);
      expect(night.writes.creates + night.writes.updates).toBe(0);
      expect(night.result.stdout).toContain(
        "  same key  1 remote product has the key of a source row that writes another product: not written (the report's note names it)\n",
      );
      expect(night.result.stdout).not.toContain('not in the source');
      expect(night.lines.find((line) => line.key === extra.sku && line.row !== '')).toMatchObject({
        action: 'unchanged',
        product_id: ownId,
      });
      expect(night.lines.filter((line) => line.row === '')).toEqual([
        {
          row: '',
          key: extra.sku,
          action: 'missing',
          product_id: handId,
          status: 'ok',
          error: '',
          note: `the marketplace has more than one product with sku ${extra.sku}: this tool writes product ${ownId} (the one it recorded), not this one`,
        },
      ]);
    }
    expect(product(ownId)).toMatchObject({
      name: extra.name,
      price: priceNumber(extra.price),
      stock_level: '6',
    });
    expect(product(handId as string)).toMatchObject({ name: 'By hand', price: 5 });
    expect(product(handId as string)?.stock_level).toBeUndefined();
  });

  it('a SKU given by hand to another managed product: each row keeps its own product, and gets its SKU back; nothing deactivated', async () => {
    await run(FEED);
    const [first, second] = FEED as CatalogRow[] as [CatalogRow, CatalogRow];
    const idOf = (sku: string) => String(pipeline.products().find((p) => p.sku === sku)?.id);
    const [firstId, secondId] = [idOf(first.sku), idOf(second.sku)];
    pipeline.sandbox.editProduct(MAIN_SELLER, firstId, { sku: second.sku });

    const night = await runReported(pipeline, FEED, MISSING);

    expect(night.result.code, night.result.stderr).toBe(0);
    expect(
      night.lines.map(({ row, action, product_id, status }) => [row, action, product_id, status]),
    ).toEqual([
      ['1', 'update', firstId, 'ok'],
      ['2', 'unchanged', secondId, 'ok'],
      ['3', 'unchanged', idOf(FEED[2]?.sku as string), 'ok'],
    ]);
    expect(night.writes).toMatchObject({ creates: 0, updates: 1 });
    expect(pipeline.sandbox.requests().filter((r) => r.method === 'PUT')).toMatchObject([
      { query: { id: firstId }, body: { sku: first.sku } },
    ]);
    for (const row of FEED) expect(product(idOf(row.sku))).toMatchObject({ sku: row.sku, stock_level: '4' });

    const after = await runReported(pipeline, FEED, MISSING);
    expect(after.writes.creates + after.writes.updates).toBe(0);
  });
});
