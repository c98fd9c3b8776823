import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REAL_FIXTURES_DIR } from '../../support/real-fixtures-dir.js';
import { MAIN_SELLER, type Pipeline, requestCounts, usePipeline } from '../support/pipeline.js';

/**
 * The poetry feed with a price for the six items it prices 0 (a price of 0 makes an item invalid,
 * preset-gaps.test.ts): its first item, with an empty <g:price/>, is then the one without a price.
 */
async function pricedPoetryFeed(pipeline: Pipeline): Promise<string> {
  const text = await readFile(join(REAL_FIXTURES_DIR, 'google-merchant/google-merchant-feed.xml'), 'utf8');
  const path = join(pipeline.dir, 'feed.xml');
  await writeFile(path, text.replaceAll('<g:price>0</g:price>', '<g:price>5.00 GBP</g:price>'));
  return path;
}

/** Issue 17: a row that cannot be created is known before any request. */
describe('a row that cannot be created', () => {
  const pipeline = usePipeline();

  it('a new product without a price is invalid, with no request for it', async () => {
    // The poetry feed's first item has an empty <g:price/>; the other six have prices.
    const source = await pricedPoetryFeed(pipeline);

    const result = await pipeline.cli(['run', source, '--report', join(pipeline.dir, 'r.csv')]);

    expect(result.code).toBe(1);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 6, updates: 0 });
    expect(pipeline.sandbox.stats().byStatus['400']).toBeUndefined();
    expect(await pipeline.readText('r.csv')).toContain(
      '1,fb678cd296d616b7155f6c3fce811f02,invalid,,failed,missing price for a new product,',
    );
    // Each of the six carries its <description>, though the first item had none.
    const described = pipeline.products().filter((product) => typeof product.description === 'string');
    expect(described).toHaveLength(6);
  });

  it('an update that does not touch price still goes out', async () => {
    const [id] = pipeline.sandbox.seedProducts(MAIN_SELLER, [
      { sku: 'fb678cd296d616b7155f6c3fce811f02', name: 'Old', price: 9 },
    ]);
    const source = await pricedPoetryFeed(pipeline);

    const result = await pipeline.cli(['run', source, '--report', join(pipeline.dir, 'r.csv')]);

    expect(result.code).toBe(0);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 6, updates: 1 });
    expect(pipeline.products().find((product) => product.id === Number(id))).toMatchObject({
      name: 'Battle for Singapore',
      price: 9,
    });
  });

  it('a Magento bundle with dynamic pricing is skipped when new ("bundle priced from its parts"), and the run exits 0', async () => {
    const source = join(REAL_FIXTURES_DIR, 'magento2/catalog_product.csv');

    const result = await pipeline.cli(['run', source, '--report', join(pipeline.dir, 'r.csv')]);

    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'rows      6: 4 created, 0 updated, 0 unchanged, 0 invalid, 0 failed, 2 skipped',
    );
    const report = await pipeline.readText('r.csv');
    expect(report).toContain('5,24-WG085-bundle-dynamic,skipped,,ok,bundle priced from its parts,');
    expect(report).toContain(
      'bundle_price_type dynamic: priced from its parts, its price cell (14) is not sent',
    );
    expect(pipeline.products().map((product) => product.sku)).not.toContain('24-WG085-bundle-dynamic');
  });

  it('with --fields leaving price out, a new product is invalid before any request; a known one is updated', async () => {
    await writeFile(join(pipeline.dir, 'c.csv'), 'sku,name,price\nA-1,Mug,5\nB-1,Cup,6\n', 'utf8');
    pipeline.sandbox.seedProducts(MAIN_SELLER, [{ sku: 'A-1', name: 'Old mug', price: 5 }]);

    const result = await pipeline.cli(['run', join(pipeline.dir, 'c.csv'), '--fields', 'sku,name']);

    expect(result.code).toBe(1);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 1 });
    expect(result.stdout).toContain('rows      2: 0 created, 1 updated, 0 unchanged, 1 invalid, 0 failed');
  });
});
