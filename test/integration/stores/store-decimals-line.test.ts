import { afterEach, describe, expect, it } from 'vitest';
import { type ShopifyDouble, startShopifyDouble } from '../../../src/sources/stores/shopify/double.js';
import { sampleShop } from '../../../src/sources/stores/shopify/sample-shop.js';
import { startWooDouble, type WooDouble } from '../../../src/sources/stores/woocommerce/double.js';
import { sampleCategories, sampleWooStore } from '../../../src/sources/stores/woocommerce/sample-store.js';
import { usePipeline } from '../support/pipeline.js';
import { runStore } from './store-cli.js';

const TOKEN = 'shpat_double_token_0123456789';
const KEYS = { consumerKey: 'ck_double_0123456789', consumerSecret: 'cs_double_9876543210' };

/**
 * A prober's finding: a store source's summary said `decimals with a dot (the file shows 40.00)`.
 * There is no file: the store's API writes its numbers one way, so there is no style to tell.
 */
describe("a store source's summary", () => {
  const pipeline = usePipeline();
  let shop: ShopifyDouble | undefined;
  let woo: WooDouble | undefined;
  afterEach(async () => {
    await shop?.close();
    await woo?.close();
    shop = undefined;
    woo = undefined;
  });

  it('of a Shopify shop says nothing of decimals, nor of a file', async () => {
    shop = await startShopifyDouble(sampleShop(), { token: TOKEN });

    const { result } = await runStore(pipeline, shop.source, ['--dry-run'], { SHOPIFY_ACCESS_TOKEN: TOKEN });

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("preset shopify (the store's platform)");
    expect(result.stdout).not.toMatch(/decimals/);
    expect(result.stdout).not.toMatch(/the file/);
  });

  it('of a WooCommerce store says nothing of decimals, nor of a file', async () => {
    woo = await startWooDouble(sampleWooStore(), sampleCategories(), { ...KEYS });

    const { result } = await runStore(pipeline, woo.source, ['--dry-run'], {
      WOO_CONSUMER_KEY: KEYS.consumerKey,
      WOO_CONSUMER_SECRET: KEYS.consumerSecret,
    });

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("preset woocommerce (the store's platform)");
    expect(result.stdout).not.toMatch(/decimals/);
    expect(result.stdout).not.toMatch(/the file/);
  });
});
