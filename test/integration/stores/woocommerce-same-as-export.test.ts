import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startWooDouble, type WooDouble } from '../../../src/sources/stores/woocommerce/double.js';
import { REAL_FIXTURES_DIR } from '../../support/real-fixtures-dir.js';
import { parseCsv } from '../support/catalog.js';
import { usePipeline } from '../support/pipeline.js';
import { runStore } from './store-cli.js';
import { storeFromWooExport } from './store-from-woo-export.js';

const KEYS = { consumerKey: 'ck_same', consumerSecret: 'cs_same' };

/** The products as listed, less the time of their last write. */
const withoutTimes = (products: Array<Record<string, unknown>>) =>
  products.map(({ updated_at: _updated, ...product }) => product);
/** The products the export created, with the store's currency (the double's, USD) added. */
const inUsd = (products: Array<Record<string, unknown>>) =>
  withoutTimes(products).map((product) => ({ ...product, currency: 'USD' }));

describe('a WooCommerce store read from its CSV export, then from its REST API, syncs to the same products', () => {
  const pipeline = usePipeline();
  let store: WooDouble | undefined;
  afterEach(async () => {
    await store?.close();
  });

  it.each(['woocommerce/sample_products.csv', 'woocommerce/cys-dummy-products.csv'])(
    '%s: the API run after the export run finds every product unchanged but for its currency',
    async (fixture) => {
      const file = join(REAL_FIXTURES_DIR, fixture);
      const fromCsv = await pipeline.cli(['run', file, '--report', join(pipeline.dir, 'csv.csv')]);
      expect(fromCsv.code).toBe(0);
      const created = pipeline.products();
      expect(created.length).toBeGreaterThan(0);
      const csvReport = parseCsv(await pipeline.readText('csv.csv'));

      const { products, categories } = await storeFromWooExport(file);
      store = await startWooDouble(products, categories, { ...KEYS, pageSize: 10 });
      const fromApi = await runStore(pipeline, store.source, [], {
        WOO_CONSUMER_KEY: KEYS.consumerKey,
        WOO_CONSUMER_SECRET: KEYS.consumerSecret,
      });

      expect(fromApi.result.stderr).toBe('');
      expect(fromApi.result.code).toBe(0);
      // The store's currency, which the export does not hold, is all the API adds: one write each.
      expect(fromApi.writes).toMatchObject({ creates: 0, updates: created.length });
      expect(withoutTimes(pipeline.products())).toEqual(inUsd(created));
      // The same keys settled, each the same way (what the export created is unchanged from the API
      // but for its currency).
      const outcomes = (report: Array<Record<string, string>>) =>
        report
          .filter((line) => line.action !== 'merged')
          .map(
            (line) =>
              `${line.key} ${line.action === 'create' || line.action === 'update' ? 'unchanged' : line.action}`,
          )
          .sort();
      expect(outcomes(fromApi.report)).toEqual(outcomes(csvReport));
    },
  );

  // The export writes a variation's own SKU (blank); the REST API gives its parent's instead
  // (WC_Product_Variation::get_sku, `view` context), which no other product may have.
  it("variations without a SKU of their own: the API's parent SKU is no SKU, each its own product by ID", async () => {
    const file = join(pipeline.dir, 'tee-export.csv');
    await writeFile(
      file,
      [
        'ID,Type,SKU,Name,Published,Visibility in catalog,Regular price,Parent,Attribute 1 name,Attribute 1 value(s)',
        '2,variable,TEE,Tee,1,visible,,,Size,"S, M, L"',
        '3,variation,,Tee - S,1,visible,10,TEE,Size,S',
        '4,variation,,Tee - M,1,visible,10,TEE,Size,M',
        '5,variation,,Tee - L,1,visible,12,TEE,Size,L',
      ].join('\n'),
    );
    const fromCsv = await pipeline.cli(['run', file, '--report', join(pipeline.dir, 'csv.csv')]);
    expect(fromCsv.code).toBe(0);
    const created = pipeline.products();
    expect(created).toHaveLength(3);
    expect(created.every((product) => product.sku === undefined)).toBe(true);

    const { products, categories } = await storeFromWooExport(file);
    store = await startWooDouble(products, categories, KEYS);
    const fromApi = await runStore(pipeline, store.source, [], {
      WOO_CONSUMER_KEY: KEYS.consumerKey,
      WOO_CONSUMER_SECRET: KEYS.consumerSecret,
    });

    expect(fromApi.result.stderr).toBe('');
    expect(fromApi.result.code).toBe(0);
    const actions = fromApi.report.map((line) => `${line.key} ${line.action}`).sort();
    // Updated with the store's currency alone (the export holds none): never created again.
    expect(actions).toEqual([
      'TEE merged',
      'woocommerce:id:3 update',
      'woocommerce:id:4 update',
      'woocommerce:id:5 update',
    ]);
    expect(fromApi.writes).toMatchObject({ creates: 0, updates: 3 });
    expect(withoutTimes(pipeline.products())).toEqual(inUsd(created));
  });
});
