import { afterEach, describe, expect, it } from 'vitest';
import { parseStoreSource } from '../../../src/sources/stores/store-url.js';
import {
  startWooDouble,
  type WooDouble,
  type WooProduct,
} from '../../../src/sources/stores/woocommerce/double.js';
import { readWooStore } from '../../../src/sources/stores/woocommerce/read-store.js';
import { usePipeline } from '../support/pipeline.js';
import { oneLine, runStore } from './store-cli.js';

const KEYS = { consumerKey: 'ck_double_0123456789', consumerSecret: 'cs_double_9876543210' };
const ENV = { WOO_CONSUMER_KEY: KEYS.consumerKey, WOO_CONSUMER_SECRET: KEYS.consumerSecret };
const MIB = 1024 * 1024;

/** A description as pasted HTML often holds it: an image inline, `bytes` of base64. */
function pastedImage(bytes: number): string {
  return `<p>Look:</p><img src="data:image/png;base64,${'A'.repeat(bytes)}">`;
}

function product(id: number, descriptionBytes: number): WooProduct {
  return {
    id,
    name: `Product ${id}`,
    type: 'simple',
    status: 'publish',
    sku: `B-${id}`,
    description: pastedImage(descriptionBytes),
    regular_price: '10.00',
    manage_stock: true,
    stock_quantity: 5,
  };
}

describe('a WooCommerce store whose products are large (images pasted into their descriptions)', () => {
  const pipeline = usePipeline();
  let store: WooDouble | undefined;
  afterEach(async () => {
    await store?.close();
  });
  const productQueries = () =>
    store!.requests.filter((r) => r.path === '/shop/wp-json/wc/v3/products').map((r) => r.query);

  it('20 products of 2 MiB each (more than a whole answer may hold): read in smaller parts, every one', async () => {
    store = await startWooDouble(
      Array.from({ length: 20 }, (_, i) => product(100 + i, 2 * MIB)),
      [],
      KEYS,
    );

    // The store's rows as the run reads them (the run itself: the test below, scaled down).
    const rows = await readWooStore(parseStoreSource(store.source, false), {
      env: ENV,
      allowInsecure: false,
      allowPrivateSource: false,
      timeoutMs: 30_000,
      maxRecordBytes: 8 * MIB,
      sleep: async () => {},
    });
    const skus: string[] = [];
    for await (const row of rows.rows) skus.push(row.SKU ?? '');

    expect(skus).toEqual(Array.from({ length: 20 }, (_, i) => `B-${100 + i}`));
    // The page of 100 was too long: its ids were asked alone, then the products by id, in halves.
    expect(productQueries().filter((query) => /_fields=id(&|$)/.test(query))).toHaveLength(1);
    expect(productQueries().filter((query) => query.includes('include='))).toHaveLength(2);
  });

  it('one product longer than an answer may hold is one line naming it and --max-record-bytes, which lifts the bound', async () => {
    // Scaled down: answers of 64 KiB at most (32 MiB in earnest; --max-record-bytes, 8 MiB unless
    // told, lifts it when larger), product 8 of 100 KiB.
    store = await startWooDouble([product(7, 1000), product(8, 100 * 1024), product(9, 1000)], [], KEYS);
    const runSmall = (...args: string[]) =>
      runStore(pipeline, store!.source, args, ENV, undefined, 64 * 1024);

    const refused = await runSmall('--dry-run', '--max-record-bytes', '16KiB');

    expect(refused.result.code).toBe(2);
    expect(oneLine(refused.result.stderr)).toBe(
      `catalog-sync: ${store.source}: product 8 is longer than 64 KiB as the REST API gives it ` +
        '(an image pasted into its description?): --max-record-bytes 1MiB lets it be read',
    );
    expect(refused.result.stderr).not.toMatch(/run it again/i);

    const lifted = await runSmall('--dry-run', '--max-record-bytes', '1MiB');

    expect(lifted.result.stderr).toBe('');
    expect(lifted.result.code).toBe(0);
    expect(lifted.report.map((line) => line.key)).toEqual(['B-7', 'B-8', 'B-9']);
  });
});
