import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type ShopifyDouble,
  type ShopProduct,
  startShopifyDouble,
} from '../../../src/sources/stores/shopify/double.js';
import { sampleShop } from '../../../src/sources/stores/shopify/sample-shop.js';
import { runIdOf } from '../support/cli.js';
import { bySku, usePipeline } from '../support/pipeline.js';
import { oneLine, runStore, type Waits } from './store-cli.js';

const TOKEN = 'shpat_result_file_token_0123';

/** `n` products of two variants each: three lines apiece in a grouped file. */
function twoSizeShop(n: number): ShopProduct[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `gid://shopify/Product/${i + 1}`,
    handle: `shirt-${i + 1}`,
    title: `Shirt ${i + 1}`,
    status: 'ACTIVE' as const,
    options: [{ name: 'Size', position: 1 }],
    variants: ['S', 'L'].map((size, k) => ({
      id: `gid://shopify/ProductVariant/${(i + 1) * 10 + k}`,
      sku: `SH-${i + 1}-${size}`,
      price: '3.00',
      inventoryQuantity: 2,
      selectedOptions: [{ name: 'Size', value: size }],
      inventoryItem: { tracked: true },
    })),
  }));
}

describe("a Shopify bulk operation's result file", () => {
  const pipeline = usePipeline();
  let shop: ShopifyDouble | undefined;
  afterEach(async () => {
    await shop?.close();
    shop = undefined;
  });
  let waits: Waits = { asked: [] };
  beforeEach(() => {
    waits = { asked: [] };
  });
  const run = (...args: string[]) =>
    runStore(pipeline, shop!.source, args, { SHOPIFY_ACCESS_TOKEN: TOKEN }, waits);

  it('is asked grouped (groupObjects: true), with a supported API version by default and with an old one asked for', async () => {
    // Shopify from API 2026-01 (and so for any unsupported version): ungrouped unless asked.
    shop = await startShopifyDouble(sampleShop(), { token: TOKEN });

    const first = await run('--dry-run');
    const old = await run('--dry-run', '--source-api-version', '2024-10');

    expect([first.result.code, old.result.code]).toEqual([0, 0]);
    expect(shop.operations().map((operation) => operation.grouped)).toEqual([true, true]);
    expect(
      shop.requests.filter((request) => request.operation === 'run').map((request) => request.path),
    ).toEqual(['/admin/api/2026-10/graphql.json', '/admin/api/2024-10/graphql.json']);
  });

  it('not grouped all the same (a shop that ignored groupObjects): each product is joined to its variants and images', async () => {
    shop = await startShopifyDouble(sampleShop(), { token: TOKEN });
    const grouped = await run('--dry-run');
    shop.seams.ungrouped = true;

    const ungrouped = await run();

    expect(ungrouped.result.stderr).toBe('');
    expect(ungrouped.result.code).toBe(0);
    // The same rows as the grouped file gave.
    expect(ungrouped.report.map((line) => [line.key, line.action])).toEqual(
      grouped.report.map((line) => [line.key, 'create']),
    );
    expect(pipeline.products()).toHaveLength(5);
    expect(bySku(pipeline.products()).get('LS-M')).toMatchObject({
      name: 'Linen shirt - M',
      images: [
        'https://cdn.shopify.example/files/linen-shirt-back.jpg',
        'https://cdn.shopify.example/files/linen-shirt-front.jpg',
      ],
    });
  });

  it('an API version that knows no groupObjects, served as itself, is one line naming the argument, before any write', async () => {
    // Before 2026: 2024-10 was still supported, and the argument came with 2025-07.
    shop = await startShopifyDouble(sampleShop(), { token: TOKEN, oldestSupported: '2024-07' });

    const refused = await run('--source-api-version', '2024-10');

    expect(refused.result.code).toBe(2);
    expect(oneLine(refused.result.stderr)).toBe(
      `catalog-sync: ${shop.source}: the Admin API refused the query: Field 'bulkOperationRunQuery' doesn't accept argument 'groupObjects'`,
    );
    expect(refused.stats.total).toBe(0);
  });

  it('broken at line 41: the run ends early after the rows of the products read before it, each in the report', async () => {
    shop = await startShopifyDouble(twoSizeShop(30), { token: TOKEN, brokenLine: 41 });

    const broken = await run('--dry-run');

    // 13 products were read whole before line 41 (product 14's first variant); the preset holds a
    // product's rows until the next product's begin (an export's product spans rows), so the 13th,
    // held when the file broke, is not among the rows read: 12 products of 2 variants.

    expect(broken.result.code).toBe(2);
    const id = runIdOf(broken.result.stdout);
    expect(oneLine(broken.result.stderr)).toBe(
      `catalog-sync: ${shop.source}: line 41 of the bulk result is not JSON. ` +
        `Dry run ${id} ended early after 24 rows (nothing was written): run it again once the source reads to its end`,
    );
    expect(broken.report).toHaveLength(24);
    expect(broken.report.map((line) => line.key).slice(0, 2)).toEqual(['SH-1-S', 'SH-1-L']);
    expect(new Set(broken.report.map((line) => `${line.action} ${line.status}: ${line.error}`))).toEqual(
      new Set(['skipped failed: not planned: the source broke before its turn (run it again)']),
    );
  });

  it("shorter than the fileSize Shopify gave (cut at a line's end, the answer complete as sent): the run ends early, nothing deactivated", async () => {
    shop = await startShopifyDouble(twoSizeShop(30), { token: TOKEN });
    expect((await run()).result.code).toBe(0);
    const before = pipeline.products().map((product) => product.status);
    // 75 of the 90 lines: products 26 to 30 are not in the file, as if they had left the shop.
    shop.seams.resultLines = 75;

    const cut = await run('--missing', 'status=inactive');

    expect(cut.result.code).toBe(2);
    const line = oneLine(cut.result.stderr);
    expect(line).toMatch(
      /^catalog-sync: \S+: the result file ended after [\d,]+ of its [\d,]+ bytes \(Shopify's fileSize\): run again/,
    );
    expect(line).toContain(`catalog-sync: ${shop.source}: `);
    expect(pipeline.products().map((product) => product.status)).toEqual(before);
  });

  it('COMPLETED with objects counted but no file is one line, exit 2: not an empty shop, nothing deactivated', async () => {
    shop = await startShopifyDouble(sampleShop(), { token: TOKEN });
    expect((await run()).result.code).toBe(0);
    const before = pipeline.products().map((product) => product.status);
    shop.seams.noResultUrl = true;

    const none = await run('--missing', 'status=inactive');

    expect(none.result.code).toBe(2);
    expect(oneLine(none.result.stderr)).toBe(
      `catalog-sync: ${shop.source}: Shopify's bulk operation completed with 12 objects but gave no file to read them from: run again; nothing was sent`,
    );
    expect(none.stats.total).toBe(0);
    expect(pipeline.products().map((product) => product.status)).toEqual(before);
  });
});
