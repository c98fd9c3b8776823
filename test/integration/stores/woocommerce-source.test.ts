import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWooDouble, type WooDouble } from '../../../src/sources/stores/woocommerce/double.js';
import { sampleCategories, sampleWooStore } from '../../../src/sources/stores/woocommerce/sample-store.js';
import { usePipeline } from '../support/pipeline.js';
import { runStore, type Waits } from './store-cli.js';

const KEYS = { consumerKey: 'ck_double_0123456789', consumerSecret: 'cs_double_9876543210' };
const ENV = { WOO_CONSUMER_KEY: KEYS.consumerKey, WOO_CONSUMER_SECRET: KEYS.consumerSecret };

describe('a WooCommerce store read through its REST API v3', () => {
  const pipeline = usePipeline();
  let store: WooDouble | undefined;
  let waits: Waits = { asked: [] };
  beforeEach(() => {
    waits = { asked: [] };
  });
  afterEach(async () => {
    await store?.close();
  });
  const run = (...args: string[]) => runStore(pipeline, store!.source, args, ENV, waits);
  /** The offsets of the product pages read (not the count of the variable ones before the read). */
  const productPages = () =>
    store!.requests
      .filter((r) => r.path === '/shop/wp-json/wc/v3/products' && !r.query.includes('type='))
      .map((r) => r.offset);
  const byName = () =>
    new Map(
      pipeline
        .products()
        .map(({ id: _i, created_at: _c, updated_at: _u, ...product }) => [String(product.name), product]),
    );

  it('migrates every page as the export preset means it; a re-run and --dry-run make no write', async () => {
    store = await startWooDouble(sampleWooStore(), sampleCategories(), { ...KEYS, pageSize: 4 });

    const first = await run();

    expect(first.result.stderr).toBe('');
    expect(first.result.code).toBe(0);
    const products = byName();
    expect(products.get('Ceramic vase')).toEqual({
      sku: 'VASE-1',
      name: 'Ceramic vase',
      description: '<p>Glazed stoneware.</p>',
      price: 30,
      sale_price: 25,
      quantity: 4,
      category: 'Home > Decor',
      tags: ['handmade'],
      images: [
        'https://shop.example/wp-content/uploads/vase.jpg',
        'https://shop.example/wp-content/uploads/vase-side.jpg',
      ],
      weight: 1.2,
      status: 'active',
      // The store's currency (the double's: USD), as a price cell `30.00 USD` sends it.
      currency: 'USD',
    });
    expect(products.get('Wool scarf - Grey')).toMatchObject({
      sku: 'SCARF-GREY',
      price: 35,
      quantity: 5,
      category: 'Textiles',
    });
    // A disabled variation, without SKU: matched by its id, sent as private.
    expect(products.get('Wool scarf - Navy')).toMatchObject({ price: 35, status: 'private' });
    expect(products.get('Wool scarf - Navy')).not.toHaveProperty('sku');
    expect(products.get('Staff mug')).toMatchObject({ status: 'private' });
    expect(products.get('Replacement lid')).toMatchObject({ status: 'hidden' });
    expect(products.get('Next season jacket')).toMatchObject({ status: 'draft' });
    // The sale ended in 2020: the regular price only; out of stock without managed stock is 0.
    expect(products.get('Linen towel')).toEqual({
      sku: 'TOWEL-1',
      name: 'Linen towel',
      price: 12,
      quantity: 0,
      category: 'Textiles',
      status: 'active',
      currency: 'USD',
    });
    expect(products.get('Beeswax candle')).toEqual({
      name: 'Beeswax candle',
      price: 6.5,
      status: 'active',
      currency: 'USD',
    });
    expect([...products.keys()]).toHaveLength(8);
    const actions = new Map(first.report.map((line) => [line.key, line.action]));
    expect(actions.get('GIFT-SET')).toBe('skipped');
    expect(actions.get('POSTER-EXT')).toBe('skipped');
    expect(actions.get('woocommerce:id:112')).toBe('create');
    expect(actions.get('woocommerce:id:18')).toBe('create');
    // Nine products at four a page, in ascending id, each page from the last product of the one
    // before (an overlap of one): three pages, each asked once, every request authenticated.
    expect(productPages()).toEqual(['0', '3', '6']);
    expect(
      store.requests.filter((r) => r.path === '/shop/wp-json/wc/v3/products').map((r) => r.query),
    ).toContain('?per_page=100&orderby=id&order=asc&type=variable&_fields=id%2Ctype%2Cvariations&offset=0');
    expect(store.requests.every((request) => request.authorized)).toBe(true);

    const second = await run();
    expect(second.result.code).toBe(0);
    expect(second.writes).toMatchObject({ creates: 0, updates: 0 });

    const dry = await run('--dry-run');
    expect(dry.result.code).toBe(0);
    expect(dry.stats.writesApplied).toBe(0);
  });

  it('reads to the end when the store sends no X-WP-Total nor X-WP-TotalPages', async () => {
    store = await startWooDouble(sampleWooStore(), sampleCategories(), {
      ...KEYS,
      pageSize: 4,
      paging: 'link',
    });

    const first = await run();

    expect(first.result.code).toBe(0);
    expect(pipeline.products()).toHaveLength(8);
    // Without X-WP-Total, the end is a page with nothing past the last product read: one page more.
    expect(productPages()).toEqual(['0', '3', '6', '8']);
  });

  it('--only-published leaves out the private, hidden, draft and disabled ones; --include-external sends the external one', async () => {
    store = await startWooDouble(sampleWooStore(), sampleCategories(), { ...KEYS, pageSize: 4 });

    const first = await run('--only-published', '--include-external');

    expect(first.result.code).toBe(0);
    expect([...byName().keys()].sort()).toEqual([
      'Beeswax candle',
      'Ceramic vase',
      'Linen towel',
      'Poster (partner shop)',
      'Wool scarf - Grey',
    ]);
  });

  it.each([429, 503] as const)(
    'a %s with Retry-After is waited out as it says, then the read goes on',
    async (status) => {
      store = await startWooDouble(sampleWooStore(), sampleCategories(), {
        ...KEYS,
        pageSize: 4,
        busy: 2,
        busyStatus: status,
        retryAfter: 7,
      });

      const first = await run();

      expect(first.result.code).toBe(0);
      expect(waits.asked).toEqual([7000, 7000]);
      expect(pipeline.products()).toHaveLength(8);
    },
  );

  it('wrong keys are one line naming their variables, never the keys (exit 2), before any write', async () => {
    store = await startWooDouble(sampleWooStore(), sampleCategories(), {
      ...KEYS,
      consumerSecret: 'cs_other',
    });

    const first = await run();

    expect(first.result.code).toBe(2);
    expect(first.result.stderr.trim().split('\n')).toEqual([
      `catalog-sync: woocommerce+http://127.0.0.1:${store.port}/shop: WooCommerce refused the REST API keys in WOO_CONSUMER_KEY and WOO_CONSUMER_SECRET (401): check them, or create a key with Read access`,
    ]);
    expect(first.result.stderr).not.toContain(KEYS.consumerSecret);
    expect(pipeline.sandbox.stats().total).toBe(0);
  });

  it("--preset naming another platform's is one line (exit 2): a store is read with its own preset", async () => {
    store = await startWooDouble(sampleWooStore(), sampleCategories(), KEYS);

    const refused = await run('--preset', 'shopify');

    expect(refused.result.code).toBe(2);
    expect(refused.result.stderr.trim().split('\n')).toEqual([
      'catalog-sync: --preset shopify: a woocommerce store is read with the woocommerce preset; drop --preset',
    ]);
    expect(pipeline.sandbox.stats().total).toBe(0);
    expect(store.requests).toEqual([]);
  });

  it('--source-credentials NAME reads WOO_CONSUMER_KEY_<NAME> and WOO_CONSUMER_SECRET_<NAME>', async () => {
    store = await startWooDouble(sampleWooStore(), sampleCategories(), KEYS);

    const named = await runStore(pipeline, store.source, ['--source-credentials', 'EU'], {
      WOO_CONSUMER_KEY_EU: KEYS.consumerKey,
      WOO_CONSUMER_SECRET_EU: KEYS.consumerSecret,
    });

    expect(named.result.code).toBe(0);
    expect(pipeline.products()).toHaveLength(8);
  });
});
