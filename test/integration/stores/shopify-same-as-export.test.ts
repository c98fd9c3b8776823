import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ShopifyDouble, startShopifyDouble } from '../../../src/sources/stores/shopify/double.js';
import { REAL_FIXTURES_DIR } from '../../support/real-fixtures-dir.js';
import { parseCsv } from '../support/catalog.js';
import { usePipeline } from '../support/pipeline.js';
import { shopFromExport } from './shop-from-export.js';
import { runStore } from './store-cli.js';

const TOKEN = 'shpat_double_token_same';

/** The products as listed, less the time of their last write. */
const withoutTimes = (products: Array<Record<string, unknown>>) =>
  products.map(({ updated_at: _updated, ...product }) => product);
/** The products the export created, with the shop's currency (the double's, USD) added. */
const inUsd = (products: Array<Record<string, unknown>>) =>
  withoutTimes(products).map((product) => ({ ...product, currency: 'USD' }));

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
  ])(
    '%s: the API run after the export run finds every product unchanged but for its currency',
    async (fixture) => {
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
      // The shop's currency, which the export does not hold, is all the API adds: one write each.
      expect(fromApi.writes).toMatchObject({ creates: 0, updates: created.length });
      expect(withoutTimes(pipeline.products())).toEqual(inUsd(created));
      // Row for row, the same keys with the same outcome: what was sent from the export is unchanged
      // but for the shop's currency (each created product updated with it alone).
      const settled = (report: Array<Record<string, string>>) =>
        report.filter((line) => line.action !== 'merged').map((line) => line.key);
      expect(settled(fromApi.report)).toEqual(settled(csvReport));
      expect(new Set(fromApi.report.filter((l) => l.action !== 'merged').map((line) => line.action))).toEqual(
        new Set(
          csvReport
            .filter((l) => l.action !== 'merged')
            .map((l) => (l.action === 'create' ? 'update' : l.action)),
        ),
      );
    },
  );
});
