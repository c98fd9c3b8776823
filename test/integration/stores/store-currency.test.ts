import { afterEach, describe, expect, it } from 'vitest';
import {
  type ShopifyDouble,
  type ShopProduct,
  startShopifyDouble,
} from '../../../src/sources/stores/shopify/double.js';
import {
  startWooDouble,
  type WooDouble,
  type WooProduct,
} from '../../../src/sources/stores/woocommerce/double.js';
import { bySku, usePipeline } from '../support/pipeline.js';
import { runStore } from './store-cli.js';

const WOO_KEYS = { consumerKey: 'ck_currency_0123456789', consumerSecret: 'cs_currency_9876543210' };
const WOO_ENV = { WOO_CONSUMER_KEY: WOO_KEYS.consumerKey, WOO_CONSUMER_SECRET: WOO_KEYS.consumerSecret };
const TOKEN = 'shpat_currency_token_0123456789';
const SKU = 'LAMP-1';

const wooLamp = (): WooProduct => ({
  id: 10,
  name: 'Desk lamp',
  type: 'simple',
  status: 'publish',
  sku: SKU,
  regular_price: '19.99',
  manage_stock: true,
  stock_quantity: 3,
  stock_status: 'instock',
});

const shopLamp = (): ShopProduct => ({
  id: 'gid://shopify/Product/10',
  handle: 'desk-lamp',
  title: 'Desk lamp',
  status: 'ACTIVE',
  options: [{ name: 'Title', position: 1 }],
  variants: [
    {
      id: 'gid://shopify/ProductVariant/11',
      sku: SKU,
      price: '19.99',
      inventoryQuantity: 3,
      selectedOptions: [{ name: 'Title', value: 'Default Title' }],
      inventoryItem: { tracked: true },
    },
  ],
});

/**
 * A store knows the currency of its prices, as a price cell `19.99 EUR` says its own: the number
 * never lands on the marketplace in another currency with no word (a EUR store's 19.99 shown as
 * 19.99 USD). The store's currency is read and the prices carry it.
 */
describe("a store's currency goes with its prices", () => {
  const pipeline = usePipeline();
  let woo: WooDouble | undefined;
  let shop: ShopifyDouble | undefined;
  afterEach(async () => {
    await woo?.close();
    await shop?.close();
    woo = undefined;
    shop = undefined;
  });

  /** The lamp listed on the marketplace at 25.00 USD, from a CSV that says so. */
  const listedInUsd = async () => {
    const csv = await pipeline.csv('listed.csv', [{ sku: SKU, name: 'Desk lamp', price: '25.00 USD' }]);
    const listed = await pipeline.cli(['run', csv]);
    expect(listed.code).toBe(0);
    expect(bySku(pipeline.products()).get(SKU)).toMatchObject({ price: 25, currency: 'USD' });
  };

  const stores = {
    woocommerce: async (currency: string, seams: { currencyRefused?: 403 | 404 } = {}) => {
      woo = await startWooDouble([wooLamp()], [], { ...WOO_KEYS, currency, ...seams });
      return { source: woo.source, env: WOO_ENV };
    },
    shopify: async (currency: string) => {
      shop = await startShopifyDouble([shopLamp()], { token: TOKEN, currency });
      return { source: shop.source, env: { SHOPIFY_ACCESS_TOKEN: TOKEN } };
    },
  };

  describe.each(['woocommerce', 'shopify'] as const)('%s', (platform) => {
    it('a EUR store into a product listed in USD, --fields without currency: the row is refused, nothing sent', async () => {
      await listedInUsd();
      const store = await stores[platform]('EUR');

      const run = await runStore(pipeline, store.source, ['--fields', 'price'], store.env);

      const row = run.report.find((line) => line.key === SKU);
      expect(row?.action).toBe('invalid');
      expect(row?.error).toMatch(
        /^row \d+: price "19\.99 EUR" is in EUR, but product \S+ is in USD on the marketplace, and --fields leaves currency out: add currency to --fields$/,
      );
      expect(run.writes).toMatchObject({ creates: 0, updates: 0 });
      expect(bySku(pipeline.products()).get(SKU)).toMatchObject({ price: 25, currency: 'USD' });
    });

    it('a EUR store into a product listed in USD: its price goes out with its currency, never as USD', async () => {
      await listedInUsd();
      const store = await stores[platform]('EUR');

      const run = await runStore(pipeline, store.source, [], store.env);

      expect(run.result.code).toBe(0);
      expect(run.report.find((line) => line.key === SKU)?.action).toBe('update');
      expect(bySku(pipeline.products()).get(SKU)).toMatchObject({ price: 19.99, currency: 'EUR' });
      expect(run.result.stdout).toContain("prices in EUR (the store's currency)");
    });

    it("a store in the product's currency: updated, with no word of currency", async () => {
      await listedInUsd();
      const store = await stores[platform]('USD');

      const run = await runStore(pipeline, store.source, [], store.env);

      expect(run.result.code).toBe(0);
      const row = run.report.find((line) => line.key === SKU);
      expect(row?.action).toBe('update');
      expect(row?.note ?? '').not.toMatch(/currency/);
      expect(bySku(pipeline.products()).get(SKU)).toMatchObject({ price: 19.99, currency: 'USD' });
    });

    it("--fields without currency, a store in the product's currency: updated, its note as a CSV's", async () => {
      await listedInUsd();
      const store = await stores[platform]('USD');

      const run = await runStore(pipeline, store.source, ['--fields', 'price'], store.env);

      const row = run.report.find((line) => line.key === SKU);
      expect(row?.action).toBe('update');
      expect(row?.note).toContain(
        'price "19.99 USD": its currency USD not sent (--fields leaves currency out)',
      );
      expect(bySku(pipeline.products()).get(SKU)).toMatchObject({ price: 19.99, currency: 'USD' });
    });

    it('a product the store creates gets the store’s currency', async () => {
      const store = await stores[platform]('EUR');

      const run = await runStore(pipeline, store.source, [], store.env);

      expect(run.result.code).toBe(0);
      expect(bySku(pipeline.products()).get(SKU)).toMatchObject({ price: 19.99, currency: 'EUR' });
    });
  });

  it.each([
    [403, "403 on /data/currencies/current: the key's user may read products but not the store's settings"],
    [404, '404 on /data/currencies/current: WooCommerce before 3.5, or a plugin hides it'],
  ] as const)(
    'WooCommerce refusing the currency read (%s): the run goes on, prices as numbers, said once',
    async (status, why) => {
      await listedInUsd();
      const store = await stores.woocommerce('EUR', { currencyRefused: status });

      const run = await runStore(pipeline, store.source, [], store.env);

      expect(run.result.code).toBe(0);
      expect(run.result.stderr).toBe('');
      expect(run.report.find((line) => line.key === SKU)?.action).toBe('update');
      expect(bySku(pipeline.products()).get(SKU)).toMatchObject({ price: 19.99, currency: 'USD' });
      const said = run.result.stdout.split('\n').filter((line) => line.includes("the store's currency"));
      expect(said.map((line) => line.trim())).toEqual([
        `the store's currency could not be read (${why}): prices are sent as numbers, with no currency`,
      ]);
    },
  );
});
