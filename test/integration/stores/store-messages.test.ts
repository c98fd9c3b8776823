import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ShopifyDouble, startShopifyDouble } from '../../../src/sources/stores/shopify/double.js';
import { sampleShop } from '../../../src/sources/stores/shopify/sample-shop.js';
import { startWooDouble, type WooDouble } from '../../../src/sources/stores/woocommerce/double.js';
import { sampleCategories, sampleWooStore } from '../../../src/sources/stores/woocommerce/sample-store.js';
import { usePipeline } from '../support/pipeline.js';
import { oneLine, runStore, type Waits } from './store-cli.js';

const KEYS = { consumerKey: 'ck_double_0123456789', consumerSecret: 'cs_double_9876543210' };
const WOO_ENV = { WOO_CONSUMER_KEY: KEYS.consumerKey, WOO_CONSUMER_SECRET: KEYS.consumerSecret };
const TOKEN = 'shpat_double_token_0123456789';

/** Mistakes a user makes with a store source: each one line on stderr, exit 2, nothing written. */
describe('a store source given wrong', () => {
  const pipeline = usePipeline();
  let woo: WooDouble | undefined;
  let shop: ShopifyDouble | undefined;
  let waits: Waits = { asked: [] };
  beforeEach(() => {
    waits = { asked: [] };
  });
  afterEach(async () => {
    await woo?.close();
    await shop?.close();
    woo = undefined;
    shop = undefined;
  });

  it.each([
    ['a typographic quote', `${TOKEN}\u201d`],
    ['a line break', `${TOKEN}\nsecond`],
  ])('a Shopify token with %s: one line naming the variable, never the token', async (_what, token) => {
    shop = await startShopifyDouble(sampleShop(), { token: TOKEN });

    const refused = await runStore(
      pipeline,
      shop.source,
      ['--dry-run'],
      { SHOPIFY_ACCESS_TOKEN: token },
      waits,
    );

    expect(refused.result.code).toBe(2);
    expect(oneLine(refused.result.stderr)).toMatch(
      /^catalog-sync: shopify\+http:\/\/127\.0\.0\.1:\d+: SHOPIFY_ACCESS_TOKEN holds .+, which no token or key has/,
    );
    expect(refused.result.stderr).not.toContain(TOKEN);
    expect(shop.requests).toHaveLength(0);
  });

  it('WooCommerce keys with a typographic quote: one line naming the variable, nothing asked', async () => {
    woo = await startWooDouble(sampleWooStore(), sampleCategories(), { ...KEYS });

    const refused = await runStore(
      pipeline,
      woo.source,
      [],
      { ...WOO_ENV, WOO_CONSUMER_SECRET: `${KEYS.consumerSecret}\u2019` },
      waits,
    );

    expect(refused.result.code).toBe(2);
    expect(oneLine(refused.result.stderr)).toMatch(/: WOO_CONSUMER_SECRET holds a typographic quote/);
    expect(refused.result.stderr).not.toContain(KEYS.consumerSecret);
    expect(woo.requests).toHaveLength(0);
  });

  it('SELLER_API_KEY with a typographic quote: one line naming it, before the store is read', async () => {
    woo = await startWooDouble(sampleWooStore(), sampleCategories(), { ...KEYS });

    const refused = await runStore(
      pipeline,
      woo.source,
      [],
      { ...WOO_ENV, SELLER_API_KEY: `${pipeline.env.SELLER_API_KEY}\u201d` },
      waits,
    );

    expect(refused.result.code).toBe(2);
    expect(oneLine(refused.result.stderr)).toMatch(/^catalog-sync: SELLER_API_KEY holds a typographic quote/);
    expect(woo.requests).toHaveLength(0);
    expect(refused.stats.total).toBe(0);
  });

  it.each([
    ['woocommerce', (port: number) => `woocommerce://127.0.0.1:${port}/shop`, WOO_ENV],
    ['shopify', (port: number) => `shopify://127.0.0.1:${port}`, { SHOPIFY_ACCESS_TOKEN: TOKEN }],
  ] as const)(
    '%s: https:// to a store on plain HTTP is said so at once, not tried again',
    async (_name, source, env) => {
      woo = await startWooDouble(sampleWooStore(), sampleCategories(), { ...KEYS });
      const address = source(woo.port);

      const refused = await runStore(pipeline, address, ['--allow-private-source'], env, waits);

      expect(refused.result.code).toBe(2);
      expect(oneLine(refused.result.stderr)).toBe(
        `catalog-sync: ${address}: cannot reach the store: TLS handshake failed: the server answered in plain HTTP, not TLS (https:// to an http:// port) (ERR_SSL_WRONG_VERSION_NUMBER)`,
      );
      // What the server presents is the same on every try: none is made.
      expect(waits.asked).toEqual([]);
    },
  );

  it('--mapping over a store`s preset: the summary names the mapping file it applied', async () => {
    woo = await startWooDouble(sampleWooStore(), sampleCategories(), { ...KEYS });
    const mapping = join(pipeline.dir, 'map2.yml');
    await writeFile(mapping, 'fields:\n  sku: SKU\n  name: Type\n  price: Regular price\n');

    const mapped = await runStore(pipeline, woo.source, ['--dry-run', '--mapping', mapping], WOO_ENV, waits);

    expect(mapped.result.code).toBe(0);
    expect(mapped.result.stdout).toContain("            preset woocommerce (the store's platform)\n");
    expect(mapped.result.stdout).toContain(
      `            fields from the mapping file ${mapping} over the woocommerce preset's: sku, name, price\n`,
    );
    // Applied: the name is the product's type, as the mapping says.
    expect(mapped.report.find((line) => line.key === 'VASE-1')).toMatchObject({ action: 'create' });
  });
});
