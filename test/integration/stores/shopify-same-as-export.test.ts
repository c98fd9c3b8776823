import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ShopifyDouble, startShopifyDouble } from '../../../src/sources/stores/shopify/double.js';
import { REAL_FIXTURES_DIR } from '../../support/real-fixtures-dir.js';
import { parseCsv } from '../support/catalog.js';
import { usePipeline } from '../support/pipeline.js';
import { shopFromExport } from './shop-from-export.js';
import { runStore } from './store-cli.js';

const TOKEN = 'shpat_double_token_same';

describe('a shop read from its CSV export, then from its Admin API, syncs to the same products', () => {
  const pipeline = usePipeline();
  let shop: ShopifyDouble | undefined;
  afterEach(async () => {
    await shop?.close();
  });

  it.each([
    'shopify-export/products_export_1.csv',
    'shopify-template/product_template.csv',
    'shopify-template-legacy/product_template.csv',
  ])('%s: the API run after the export run finds every product unchanged', async (fixture) => {
    const file = join(REAL_FIXTURES_DIR, fixture);
    const fromCsv = await pipeline.cli(['run', file, '--report', join(pipeline.dir, 'csv.csv')]);
    expect(fromCsv.code).toBe(0);
    const created = pipeline.products();
    expect(created.length).toBeGreaterThan(0);
    const csvReport = parseCsv(await pipeline.readText('csv.csv'));

    shop = await startShopifyDouble(await shopFromExport(file), { token: TOKEN });
    const fromApi = await runStore(pipeline, shop.source, [], { SHOPIFY_ACCESS_TOKEN: TOKEN });

    expect(fromApi.result.stderr).toBe('');
    expect(fromApi.result.code).toBe(0);
    expect(fromApi.writes).toMatchObject({ creates: 0, updates: 0 });
    expect(pipeline.products()).toEqual(created);
    // Row for row, the same keys with the same outcome: what was sent from the export is unchanged.
    const settled = (report: Array<Record<string, string>>) =>
      report.filter((line) => line.action !== 'merged').map((line) => line.key);
    expect(settled(fromApi.report)).toEqual(settled(csvReport));
    expect(new Set(fromApi.report.filter((l) => l.action !== 'merged').map((line) => line.action))).toEqual(
      new Set(
        csvReport
          .filter((l) => l.action !== 'merged')
          .map((l) => (l.action === 'create' ? 'unchanged' : l.action)),
      ),
    );
  });
});
