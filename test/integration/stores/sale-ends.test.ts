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

const WOO_KEYS = { consumerKey: 'ck_sale_0123456789', consumerSecret: 'cs_sale_9876543210' };
const WOO_ENV = { WOO_CONSUMER_KEY: WOO_KEYS.consumerKey, WOO_CONSUMER_SECRET: WOO_KEYS.consumerSecret };
const TOKEN = 'shpat_sale_token_0123456789';

/** A simple published product with managed stock: only its prices and sale dates matter here. */
function wooProduct(id: number, sku: string, regular: string, sale: Partial<WooProduct> = {}): WooProduct {
  return {
    id,
    name: `Product ${sku}`,
    type: 'simple',
    status: 'publish',
    sku,
    regular_price: regular,
    manage_stock: true,
    stock_quantity: 3,
    stock_status: 'instock',
    ...sale,
  };
}

function shopProduct(sku: string, price: string, compareAtPrice: string | null): ShopProduct {
  return {
    id: `gid://shopify/Product/${sku.length}${price.length}`,
    handle: sku.toLowerCase(),
    title: `Product ${sku}`,
    status: 'ACTIVE',
    options: [{ name: 'Title', position: 1 }],
    variants: [
      {
        id: `gid://shopify/ProductVariant/${sku.length}`,
        sku,
        price,
        compareAtPrice,
        inventoryQuantity: 3,
        selectedOptions: [{ name: 'Title', value: 'Default Title' }],
        inventoryItem: { tracked: true },
      },
    ],
  };
}

/**
 * The night after a sale ends in the store: the marketplace must not go on selling at the sale price.
 * The API cannot clear a field (the sandbox refuses null), so the sale price is sent as the price.
 */
describe('a sale that ends in the store ends on the marketplace', () => {
  const pipeline = usePipeline();
  let woo: WooDouble | undefined;
  let shop: ShopifyDouble | undefined;
  afterEach(async () => {
    await woo?.close();
    await shop?.close();
    woo = shop = undefined;
  });
  const notes = (report: Array<Record<string, string>>) =>
    new Map(report.map((line) => [line.key, `${line.action}: ${line.note ?? ''}`]));

  it('WooCommerce: a sale price cleared, and a sale whose end passed, are ended; a product never on sale gets no write', async () => {
    const products = [
      wooProduct(1, 'CLEARED', '50.00', { sale_price: '40.00' }),
      wooProduct(2, 'ENDED', '30.00', { sale_price: '25.00', date_on_sale_to_gmt: '2099-01-31T23:59:59' }),
      wooProduct(3, 'NEVER', '20.00'),
      wooProduct(4, 'LATER', '60.00', { sale_price: '45.00' }),
    ];
    woo = await startWooDouble(products, [], WOO_KEYS);
    const run = (...args: string[]) => runStore(pipeline, woo!.source, args, WOO_ENV);

    const first = await run();
    expect(first.result.code).toBe(0);
    expect(bySku(pipeline.products()).get('CLEARED')).toMatchObject({ price: 50, sale_price: 40 });

    // The seller ends two sales: one by clearing its price, one by an end date now past. Another
    // gets a sale that has not begun: the store sells it at its price until then.
    products[0]!.sale_price = '';
    products[1]!.date_on_sale_to_gmt = '2020-01-31T23:59:59';
    products[3]!.date_on_sale_from_gmt = '2099-01-01T00:00:00';
    const second = await run();

    expect(second.result.stderr).toBe('');
    expect(second.result.code).toBe(0);
    const after = bySku(pipeline.products());
    expect(after.get('CLEARED')).toMatchObject({ price: 50, sale_price: 50 });
    expect(after.get('ENDED')).toMatchObject({ price: 30, sale_price: 30 });
    expect(after.get('LATER')).toMatchObject({ price: 60, sale_price: 60 });
    expect(after.get('NEVER')).not.toHaveProperty('sale_price');
    expect(second.writes).toMatchObject({ creates: 0, updates: 3 });
    const said = notes(second.report);
    expect(said.get('CLEARED')).toBe(
      'update: sale_price 40 ended (the source has no sale now): sent as the price 50, as the API cannot clear a field',
    );
    expect(said.get('ENDED')).toBe(
      'update: Sale price 25.00 USD not sent: its sale ended 2020-01-31; sale_price 25 ended (the source has no sale now): sent as the price 30, as the API cannot clear a field',
    );
    expect(said.get('LATER')).toMatch(
      /^update: Sale price 45.00 USD not sent: its sale has not started \(it starts 2099-01-01\); sale_price 45 ended/,
    );
    expect(said.get('NEVER')).toBe('unchanged: ');

    // The night after: nothing left to write.
    const third = await run();
    expect(third.result.code).toBe(0);
    expect(third.writes).toMatchObject({ creates: 0, updates: 0 });
  });

  it('Shopify: a compare-at removed, then the price raised, never leaves the old sale price below it', async () => {
    const products = [shopProduct('TEE', '10.00', '15.00'), shopProduct('CAP', '8.00', null)];
    shop = await startShopifyDouble(products, { token: TOKEN, pollsBeforeDone: 1 });
    const run = (...args: string[]) =>
      runStore(pipeline, shop!.source, args, { SHOPIFY_ACCESS_TOKEN: TOKEN });

    expect((await run()).result.code).toBe(0);
    expect(bySku(pipeline.products()).get('TEE')).toMatchObject({ price: 15, sale_price: 10 });

    // The compare-at removed: the buyer pays 10, as the marketplace's sale price already says.
    products[0]!.variants[0]!.compareAtPrice = null;
    const second = await run();
    expect(second.result.code).toBe(0);
    expect(bySku(pipeline.products()).get('TEE')).toMatchObject({ price: 10, sale_price: 10 });

    // Then the price goes up to 12: the old sale price 10 must not stay below it.
    products[0]!.variants[0]!.price = '12.00';
    const third = await run();
    expect(third.result.code).toBe(0);
    expect(bySku(pipeline.products()).get('TEE')).toMatchObject({ price: 12, sale_price: 12 });
    expect(bySku(pipeline.products()).get('CAP')).not.toHaveProperty('sale_price');
    expect(third.writes).toMatchObject({ creates: 0, updates: 1 });

    const fourth = await run();
    expect(fourth.writes).toMatchObject({ creates: 0, updates: 0 });
  });

  it('an ended sale is a price move the buyer sees: --max-price-change holds it; --incremental ends it from its record', async () => {
    const products = [
      wooProduct(1, 'CLEARED', '50.00', { sale_price: '40.00' }),
      wooProduct(3, 'NEVER', '20.00'),
    ];
    woo = await startWooDouble(products, [], WOO_KEYS);
    const run = (...args: string[]) => runStore(pipeline, woo!.source, args, WOO_ENV);
    expect((await run('--incremental')).result.code).toBe(0);

    products[0]!.sale_price = '';
    const guarded = await run('--incremental', '--max-price-change', '10%');
    expect(guarded.result.code).toBe(5);
    expect(guarded.writes.updates).toBe(0);
    expect(bySku(pipeline.products()).get('CLEARED')).toMatchObject({ sale_price: 40 });
    expect(guarded.report.find((line) => line.key === 'CLEARED')).toMatchObject({
      action: 'update',
      status: 'held',
      error: 'sale ended: the price the buyer pays 40 → 50 (+25%) exceeds --max-price-change 10%',
    });

    // Without the guard, from the record alone (no product read): one PUT, to the product on sale.
    const incremental = await run('--incremental');
    expect(incremental.result.code).toBe(0);
    expect(incremental.result.stdout).toContain('incremental no product read');
    expect(incremental.writes).toMatchObject({ lists: 0, creates: 0, updates: 1 });
    expect(bySku(pipeline.products()).get('CLEARED')).toMatchObject({ price: 50, sale_price: 50 });
    expect((await run('--incremental')).writes).toMatchObject({ total: 0 });
  });

  it('a WooCommerce export whose Sale price is blank ends the sale as the store read does; a file without sale prices ends none', async () => {
    const columns = ['ID', 'Type', 'SKU', 'Name', 'Published', 'Regular price', 'Sale price', 'Stock'];
    const row = (sale: string) => ({
      ID: '1',
      Type: 'simple',
      SKU: 'CLEARED',
      Name: 'Product',
      Published: '1',
      'Regular price': '50',
      'Sale price': sale,
      Stock: '3',
    });
    const woo = (sale: string) => pipeline.csv('export.csv', [row(sale) as never], columns);
    expect((await pipeline.cli(['run', await woo('40')])).code).toBe(0);
    expect(bySku(pipeline.products()).get('CLEARED')).toMatchObject({ price: 50, sale_price: 40 });

    // A generic file says nothing of sales: the sale price stays, and no write is made for it.
    pipeline.sandbox.resetStats();
    const generic = await pipeline.csv('generic.csv', [{ sku: 'CLEARED', name: 'Product', price: '50' }]);
    expect((await pipeline.cli(['run', generic])).code).toBe(0);
    expect(pipeline.sandbox.stats().byRoute['PUT /products'] ?? 0).toBe(0);

    expect((await pipeline.cli(['run', await woo('')])).code).toBe(0);
    expect(bySku(pipeline.products()).get('CLEARED')).toMatchObject({ price: 50, sale_price: 50 });
  });
});
