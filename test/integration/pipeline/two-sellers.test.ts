import { describe, expect, it } from 'vitest';
import { type CatalogRow, catalogRows, priceNumber } from '../support/catalog.js';
import { bySku, MAIN_SELLER, pipelineEnv, usePipeline } from '../support/pipeline.js';

const OTHER_KEY = 'sk_test_other';
const OTHER_SELLER = 'seller-other';

describe('two sellers synced at the same time', () => {
  const pipeline = usePipeline();

  it('leaves each seller holding exactly its own catalog', async () => {
    pipeline.sandbox.addKey(OTHER_KEY, OTHER_SELLER);
    // The same skus in both catalogs, with other names and prices: nothing may cross over.
    const mine = catalogRows(180);
    const theirs: CatalogRow[] = catalogRows(130).map((row, i) => ({
      ...row,
      name: `Other seller's ${row.name}`,
      price: `${i + 1}.25`,
    }));
    const mineSource = await pipeline.csv('mine.csv', mine);
    const theirsSource = await pipeline.csv('theirs.csv', theirs);
    const otherEnv = pipelineEnv(pipeline.sandbox, OTHER_KEY, pipeline.prefix);

    const [first, second] = await Promise.all([
      pipeline.cli(['run', mineSource]),
      pipeline.cli(['run', theirsSource], otherEnv),
    ]);

    expect([first.code, second.code]).toEqual([0, 0]);
    expect(first.stdout).toContain('rows      180: 180 created');
    expect(second.stdout).toContain('rows      130: 130 created');
    for (const [seller, rows] of [
      [MAIN_SELLER, mine],
      [OTHER_SELLER, theirs],
    ] as const) {
      const stored = bySku(pipeline.products(seller));
      expect(pipeline.products(seller)).toHaveLength(rows.length);
      for (const row of rows) {
        expect(stored.get(row.sku)).toEqual({ sku: row.sku, name: row.name, price: priceNumber(row.price) });
      }
    }
  });
});
