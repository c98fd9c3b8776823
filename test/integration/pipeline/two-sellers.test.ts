import { describe, expect, it } from 'vitest';
import { type CatalogRow, catalogRows, priceNumber } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { bySku, MAIN_SELLER, pipelineEnv, usePipeline } from '../support/pipeline.js';

const OTHER_KEY = 'sk_test_other';
const OTHER_SELLER = 'seller-other';

/** The same skus in both catalogs, with other names and prices: nothing may cross over. */
function twoCatalogs(): [CatalogRow[], CatalogRow[]] {
  const mine = catalogRows(180);
  const theirs = catalogRows(130).map((row, i) => ({
    ...row,
    name: `Other seller's ${row.name}`,
    price: `${i + 1}.25`,
  }));
  return [mine, theirs];
}

describe('two sellers synced at the same time', () => {
  const pipeline = usePipeline();

  function expectEachHoldsItsOwn(mine: CatalogRow[], theirs: CatalogRow[]): void {
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
  }

  it('leaves each seller holding exactly its own catalog', async () => {
    pipeline.sandbox.addKey(OTHER_KEY, OTHER_SELLER);
    const [mine, theirs] = twoCatalogs();
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
    expectEachHoldsItsOwn(mine, theirs);
  });

  it('are both served by one worker process that holds both keys (--key-env names the variable)', async () => {
    pipeline.sandbox.addKey(OTHER_KEY, OTHER_SELLER);
    const [mine, theirs] = twoCatalogs();
    const env = { ...pipeline.env, SELLER_API_KEY_OTHER: OTHER_KEY };
    const first = await pipeline.cli(['import', await pipeline.csv('mine.csv', mine)], env);
    const second = await pipeline.cli(
      ['import', await pipeline.csv('theirs.csv', theirs), '--key-env', 'SELLER_API_KEY_OTHER'],
      env,
    );
    const runs = [runIdOf(first.stdout), runIdOf(second.stdout)];
    const worker = pipeline.spawn(['worker'], env);

    for (const runId of runs) {
      for (let status = ''; status !== 'done'; ) {
        status = JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout).state;
        if (worker.process.exitCode !== null) throw new Error(`the worker exited: ${worker.stderr()}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }

    expectEachHoldsItsOwn(mine, theirs);
    expect(pipeline.sandbox.stats().bySeller).toMatchObject({ [MAIN_SELLER]: 181, [OTHER_SELLER]: 131 });
    worker.process.kill('SIGTERM');
    expect((await worker.exited).code).toBe(0);
  });
});
