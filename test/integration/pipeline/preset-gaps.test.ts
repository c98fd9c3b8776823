import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REAL_FIXTURES_DIR } from '../../support/real-fixtures-dir.js';
import { bySku, requestCounts, usePipeline } from '../support/pipeline.js';

/**
 * The real exports a tester ran into the sandbox, and what landed: the products as the sandbox
 * keeps them after `catalog-sync run` over HTTP.
 */
describe('real exports where a preset read too little or too much', () => {
  const pipeline = usePipeline();
  const run = (file: string) =>
    pipeline.cli(['run', join(REAL_FIXTURES_DIR, file), '--report', join(pipeline.dir, 'r.csv')]);

  it('prestashop 1.6: iPod touch, Visibility none in a blank-headed column, lands hidden; the summary names the blank columns', async () => {
    const result = await run('prestashop/Exemples-Import CSV - 1.6-Products-US-Mono.csv');

    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'columns with a blank header, named by their place: 20 Width, 21 Height, 22 Depth, 25 Minimal quantity, 26 Visibility,',
    );
    const products = bySku(pipeline.products());
    expect(products.get('RP-demo_5')).toMatchObject({ name: 'iPod touch', status: 'hidden' });
    expect(products.get('RP-demo_2')).toMatchObject({ name: 'iPod shuffle', status: 'active' });
    expect(await pipeline.readText('r.csv')).toContain(
      '5,RP-demo_5,create,5,ok,,sent with status hidden: PrestaShop Visibility none',
    );
  });

  it('google merchant: no product lands at price 0; each item priced 0 is invalid with one line, and the run exits 1', async () => {
    const result = await run('google-merchant/google-merchant-feed.xml');

    expect(result.code).toBe(1);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
    expect(pipeline.products()).toEqual([]);
    expect(await pipeline.readText('r.csv')).toContain(
      '2,179566f2ff9c9d1d5ef874b1b9595d4d,invalid,,failed,"price ""0"" is no price in a Merchant Center feed (Google disapproves an item priced 0): give the item its price",',
    );
  });

  it("woocommerce: the V-neck's variations land with their parent's weight", async () => {
    const result = await run('woocommerce/sample_products.csv');

    expect(result.code).toBe(0);
    const products = bySku(pipeline.products());
    for (const sku of ['woo-vneck-tee-red', 'woo-vneck-tee-green', 'woo-vneck-tee-blue'])
      expect(products.get(sku)?.weight).toBe(0.5);
    expect(products.get('woo-hoodie-blue-logo')?.weight).toBe(1.5);
  });

  it('amazon: a child without a name says which column the file lacks', async () => {
    const result = await run('amazon-flat-file-synthetic/sample-variation-flat-file.tsv');

    expect(result.code).toBe(1);
    expect(await pipeline.readText('r.csv')).toContain(
      '2,SKU-RED-001,invalid,,failed,missing name for a new product (the file has no item_name column),',
    );
  });

  it('ebay: a "$" price lands without a currency, and its row says why', async () => {
    const result = await run('ebay-seller-hub-upload/ebay_upload.csv');

    expect(result.code).toBe(0);
    const product = bySku(pipeline.products()).get('MUN-GARNACHO-199-PSA10');
    expect(product).toMatchObject({ price: 479.99 });
    expect(product).not.toHaveProperty('currency');
    expect(await pipeline.readText('r.csv')).toContain(
      `"price ""$479.99"": no currency sent: the sheet does not name its eBay site's currency (eBay's template does, in its Action header: Currency=USD)"`,
    );
  });
});
