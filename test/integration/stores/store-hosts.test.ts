import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ShopifyDouble, startShopifyDouble } from '../../../src/sources/stores/shopify/double.js';
import { sampleShop } from '../../../src/sources/stores/shopify/sample-shop.js';
import { startWooDouble, type WooDouble } from '../../../src/sources/stores/woocommerce/double.js';
import { sampleCategories, sampleWooStore } from '../../../src/sources/stores/woocommerce/sample-store.js';
import { usePipeline } from '../support/pipeline.js';
import { oneLine } from './store-cli.js';

const KEYS = { consumerKey: 'ck_eu_0123456789', consumerSecret: 'cs_eu_9876543210' };
const EU_ENV = { WOO_CONSUMER_KEY_EU: KEYS.consumerKey, WOO_CONSUMER_SECRET_EU: KEYS.consumerSecret };
const TOKEN = 'shpat_hosts_0123456789';

/**
 * A job file is not the operator: the store it names gets the operator's credentials, so its host
 * must be one the environment allows (CATALOG_SYNC_STORE_HOSTS), as a job's baseUrl must be.
 */
describe("a job file's store source", () => {
  const pipeline = usePipeline();
  let woo: WooDouble | undefined;
  let shop: ShopifyDouble | undefined;
  afterEach(async () => {
    await woo?.close();
    await shop?.close();
    woo = undefined;
    shop = undefined;
  });

  async function jobFile(text: string): Promise<string> {
    await mkdir(join(pipeline.dir, 'jobs'), { recursive: true });
    const path = join(pipeline.dir, 'jobs', 'store.yml');
    await writeFile(path, text, 'utf8');
    return path;
  }

  it('on a host not allowed: one line naming CATALOG_SYNC_STORE_HOSTS, exit 2, the store never asked; allowed: read', async () => {
    woo = await startWooDouble(sampleWooStore(), sampleCategories(), { ...KEYS });
    const job = await jobFile(`source: ${woo.source}\nsourceCredentials: EU\n`);

    const refused = await pipeline.cli(['run', '--job', job, '--dry-run'], EU_ENV);

    expect(refused.code).toBe(2);
    expect(oneLine(refused.stderr)).toBe(
      `catalog-sync: store.yml: source: host 127.0.0.1:${woo.port} is not allowed: a store source not given ` +
        'on the command line must be on a host listed in CATALOG_SYNC_STORE_HOSTS (a comma list, in the environment)',
    );
    expect(woo.requests).toHaveLength(0);

    // Another port of the same host is another store.
    const otherPort = await pipeline.cli(['run', '--job', job, '--dry-run'], {
      ...EU_ENV,
      CATALOG_SYNC_STORE_HOSTS: `127.0.0.1:${woo.port + 1}`,
    });
    expect(otherPort.code).toBe(2);
    expect(woo.requests).toHaveLength(0);

    const allowed = await pipeline.cli(['run', '--job', job], {
      ...EU_ENV,
      CATALOG_SYNC_STORE_HOSTS: `shop.example.com, 127.0.0.1:${woo.port}`,
    });
    expect(allowed.stderr).toBe('');
    expect(allowed.code).toBe(0);
    expect(pipeline.products().length).toBeGreaterThan(0);
  });

  it("a Shopify double named by a job file is held to the list too; the command line's own source is not", async () => {
    shop = await startShopifyDouble(sampleShop(), { token: TOKEN });
    const job = await jobFile(`source: ${shop.source}\n`);

    const refused = await pipeline.cli(['run', '--job', job, '--dry-run'], { SHOPIFY_ACCESS_TOKEN: TOKEN });
    expect(refused.code).toBe(2);
    expect(oneLine(refused.stderr)).toContain('CATALOG_SYNC_STORE_HOSTS');
    expect(shop.requests).toHaveLength(0);

    // The operator typed it: trusted as before, the job's other options still apply.
    const typed = await pipeline.cli(['run', shop.source, '--job', job, '--dry-run'], {
      SHOPIFY_ACCESS_TOKEN: TOKEN,
    });
    expect(typed.stderr).toBe('');
    expect(typed.code).toBe(0);
    expect(shop.requests.length).toBeGreaterThan(0);
  });

  it("a job's shopify:// source must be a myshopify.com host, even one the list allows", async () => {
    const job = await jobFile('source: shopify://shop.invalid\n');

    const refused = await pipeline.cli(['run', '--job', job, '--dry-run'], {
      SHOPIFY_ACCESS_TOKEN: TOKEN,
      CATALOG_SYNC_STORE_HOSTS: 'shop.invalid',
    });

    expect(refused.code).toBe(2);
    expect(oneLine(refused.stderr)).toBe(
      "catalog-sync: store.yml: source: shopify://shop.invalid is not a shop's myshopify.com host: " +
        "a job file's Shopify source is shopify://SHOP.myshopify.com (its token goes there)",
    );
  });
});
