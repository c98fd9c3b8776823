import { afterEach, describe, expect, it } from 'vitest';
import {
  type ShopifyDouble,
  type ShopProduct,
  startShopifyDouble,
} from '../../../src/sources/stores/shopify/double.js';
import { usePipeline } from '../support/pipeline.js';
import { runStore } from './store-cli.js';

const TOKEN = 'shpat_plan_token_0123456789';

/** `count` products of one variant and one image each: three objects of the bulk operation, one row. */
function shopOf(count: number): ShopProduct[] {
  return Array.from({ length: count }, (_, n) => ({
    id: `gid://shopify/Product/${n + 1}`,
    handle: `cup-${n + 1}`,
    title: `Cup ${n + 1}`,
    status: 'ACTIVE' as const,
    options: [{ name: 'Title', position: 1 }],
    media: [
      { id: `gid://shopify/MediaImage/${n + 1}`, image: { url: `https://cdn.example/cup-${n + 1}.jpg` } },
    ],
    variants: [
      {
        id: `gid://shopify/ProductVariant/${n + 1}`,
        sku: `CUP-${n + 1}`,
        price: '9.00',
        selectedOptions: [{ name: 'Title', value: 'Default Title' }],
        inventoryItem: { tracked: false },
      },
    ],
  }));
}

describe("a Shopify run's plan before the file is read to its end", () => {
  const pipeline = usePipeline();
  let shop: ShopifyDouble | undefined;
  afterEach(async () => {
    await shop?.close();
  });

  it("says its bound comes from the bulk operation's object count, not rows, and its days as at most", async () => {
    // 900 objects, 300 rows: more rows than the chunks queued before the first is served, so the
    // plan is said while the file is still being read (its bound is the object count).
    shop = await startShopifyDouble(shopOf(300), { token: TOKEN });

    const run = await runStore(pipeline, shop.source, ['--daily-budget', '400'], {
      SHOPIFY_ACCESS_TOKEN: TOKEN,
    });

    expect(run.result.stderr).toBe('');
    expect(run.result.code).toBe(0);
    expect(run.result.stdout).toContain(
      "plan      up to 901 requests (the bulk operation's 900 objects; rows are fewer), 400 a day (--daily-budget), 400 left today: at most 3 days",
    );
    expect(run.writes.creates).toBe(300);
  });
});
