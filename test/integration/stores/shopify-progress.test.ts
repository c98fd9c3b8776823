import { afterEach, describe, expect, it } from 'vitest';
import { openSource } from '../../../src/sources/index.js';
import { type ShopifyDouble, startShopifyDouble } from '../../../src/sources/stores/shopify/double.js';
import { sampleShop } from '../../../src/sources/stores/shopify/sample-shop.js';

const TOKEN = 'shpat_progress_token';

describe('a Shopify source while Shopify prepares its file', () => {
  let shop: ShopifyDouble | undefined;
  afterEach(async () => {
    await shop?.close();
  });

  it("tells the operation's objectCount as it grows, polls with growing waits, then gives the export's rows", async () => {
    shop = await startShopifyDouble(sampleShop(), { token: TOKEN, pollsBeforeDone: 3 });
    const told: string[] = [];
    const waits: number[] = [];

    const opened = await openSource(shop.source, {
      store: {
        env: { SHOPIFY_ACCESS_TOKEN: TOKEN },
        allowInsecure: false,
        sleep: async (ms) => {
          waits.push(ms);
        },
        onProgress: (line) => told.push(line),
      },
    });
    const handles: string[] = [];
    for await (const record of opened.records) handles.push(record.values.Handle ?? '');

    expect(told).toEqual([
      'Shopify bulk operation running: 3 objects',
      'Shopify bulk operation running: 6 objects',
      'Shopify bulk operation running: 9 objects',
      'Shopify bulk operation completed: 12 objects',
    ]);
    expect(waits).toEqual([1000, 2000, 4000]);
    expect(opened.preset).toBe('shopify');
    expect(opened.rowEstimate?.rows).toBe(12);
    // The shirt's two variants (its two images on their rows), then one row for each other product.
    expect(handles).toEqual(['linen-shirt', 'linen-shirt', 'clay-mug', 'winter-coat', 'old-lamp']);
  });
});
