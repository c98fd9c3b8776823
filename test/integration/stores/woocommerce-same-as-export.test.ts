import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startWooDouble, type WooDouble } from '../../../src/sources/stores/woocommerce/double.js';
import { REAL_FIXTURES_DIR } from '../../support/real-fixtures-dir.js';
import { parseCsv } from '../support/catalog.js';
import { usePipeline } from '../support/pipeline.js';
import { runStore } from './store-cli.js';
import { storeFromWooExport } from './store-from-woo-export.js';

const KEYS = { consumerKey: 'ck_same', consumerSecret: 'cs_same' };

describe('a WooCommerce store read from its CSV export, then from its REST API, syncs to the same products', () => {
  const pipeline = usePipeline();
  let store: WooDouble | undefined;
  afterEach(async () => {
    await store?.close();
  });

  it.each(['woocommerce/sample_products.csv', 'woocommerce/cys-dummy-products.csv'])(
    '%s: the API run after the export run finds every product unchanged',
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
      expect(fromApi.writes).toMatchObject({ creates: 0, updates: 0 });
      expect(pipeline.products()).toEqual(created);
      // The same keys settled, each the same way (what the export created is unchanged from the API).
      const outcomes = (report: Array<Record<string, string>>) =>
        report
          .filter((line) => line.action !== 'merged')
          .map((line) => `${line.key} ${line.action === 'create' ? 'unchanged' : line.action}`)
          .sort();
      expect(outcomes(fromApi.report)).toEqual(outcomes(csvReport));
    },
  );
});
