import { afterEach, describe, expect, it } from 'vitest';
import { startWooDouble, type WooDouble } from '../../../src/sources/stores/woocommerce/double.js';
import { bySku, usePipeline } from '../support/pipeline.js';
import { runStore } from './store-cli.js';
import { beforeProductPage, deleteProduct, numberedProduct, numberedWooStore } from './woo-numbered-store.js';

const KEYS = { consumerKey: 'ck_double_0123456789', consumerSecret: 'cs_double_9876543210' };
const ENV = { WOO_CONSUMER_KEY: KEYS.consumerKey, WOO_CONSUMER_SECRET: KEYS.consumerSecret };

describe('a WooCommerce store that changes while it is read', () => {
  const pipeline = usePipeline();
  let store: WooDouble | undefined;
  afterEach(async () => {
    await store?.close();
  });
  const run = (...args: string[]) => runStore(pipeline, store!.source, args, ENV);
  const productPages = () =>
    store!.requests
      .filter((r) => r.path === '/shop/wp-json/wc/v3/products' && !r.query.includes('type='))
      .map((r) => r.offset);
  const stockOf = (sku: string) => bySku(pipeline.products()).get(sku)?.quantity;

  it('a product deleted before page 2 shifts nothing out of the read: --missing deactivates only what is gone', async () => {
    // The tester's store: 350 products, every tenth with 3 variations, pages of 100.
    store = await startWooDouble(numberedWooStore(350), [], KEYS);
    const full = await run();
    expect(full.result.code).toBe(0);
    expect(stockOf('W-101')).toBe(5);
    store.requests.length = 0;

    // Product 1 (read on page 1) and product 150 (not read yet) are deleted before page 2 is served.
    beforeProductPage(store, 2, (products) => {
      deleteProduct(products, 1);
      deleteProduct(products, 150);
    });
    const night = await run('--missing', 'quantity=0');

    expect(night.result.stderr).toBe('');
    expect(night.result.code).toBe(0);
    // Every product the store held throughout the read was read: none is deactivated.
    const deactivated = night.report.filter((line) => line.action === 'deactivate').map((line) => line.key);
    expect(deactivated.sort()).toEqual(['W-150-A', 'W-150-B', 'W-150-C']);
    expect(stockOf('W-101')).toBe(5);
    expect(stockOf('W-150-A')).toBe(0);
    // Product 1 was read before it was deleted: it is a source row of this run, the next run sees it gone.
    expect(night.report.find((line) => line.key === 'W-1')?.action).toBe('unchanged');
    expect(night.writes.updates).toBe(3);
    // Page 2 from product 100 (offset 99) began past it, at 101: one step back found 100 again.
    expect(productPages()).toEqual(['0', '99', '98', '197', '296']);

    store.seams.beforeList = undefined;
    const next = await run('--missing', 'quantity=0');
    expect(next.result.code).toBe(0);
    const sent = next.report.filter((line) => line.action === 'deactivate' && line.note !== 'already so');
    expect(sent.map((line) => line.key)).toEqual(['W-1']);
    expect(next.writes.updates).toBe(1);
    expect(stockOf('W-1')).toBe(0);
  });

  it('a product added during the read is read once: no duplicate sku, no extra write', async () => {
    store = await startWooDouble(numberedWooStore(35), [], { ...KEYS, pageSize: 10 });
    const full = await run();
    expect(full.result.code).toBe(0);

    // A new product, put first in the store's own order (newest first), just before page 2.
    beforeProductPage(store, 2, (products) => {
      products.unshift({ ...numberedProduct(36), sku: 'W-NEW' });
    });
    const night = await run('--missing', 'quantity=0');

    expect(night.result.stderr).toBe('');
    expect(night.result.code).toBe(0);
    expect(night.report.filter((line) => line.action === 'invalid')).toEqual([]);
    expect(night.report.filter((line) => line.key === 'W-NEW').map((line) => line.action)).toEqual([
      'create',
    ]);
    expect(night.writes).toMatchObject({ creates: 1, updates: 0 });
  });

  it('a variable product deleted before its variations are read has none: the run goes on', async () => {
    store = await startWooDouble(numberedWooStore(35), [], { ...KEYS, pageSize: 10 });
    expect((await run()).result.code).toBe(0);
    store.seams.beforeList = (request, products) => {
      if (request.product === 20) deleteProduct(products, 20);
    };

    const night = await run('--missing', 'quantity=0');

    expect(night.result.stderr).toBe('');
    expect(night.result.code).toBe(0);
    const deactivated = night.report.filter((line) => line.action === 'deactivate').map((line) => line.key);
    expect(deactivated.sort()).toEqual(['W-20-A', 'W-20-B', 'W-20-C']);
    expect(stockOf('W-30-A')).toBe(2);
  });

  it('a read that cannot be completed ends the run in one line (exit 2): nothing is deactivated', async () => {
    store = await startWooDouble(numberedWooStore(35), [], { ...KEYS, pageSize: 10 });
    expect((await run()).result.code).toBe(0);
    // The way a store changing past WOO_MAX_STEPS_BACK ends the read too: a source that broke (its
    // third page answers 500 at every try).
    store.seams.failPage = { offset: 18, answer: 500 };

    const night = await run('--missing', 'quantity=0');

    expect(night.result.code).toBe(2);
    const lines = night.result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^catalog-sync: ${store.source.replace(/[.+]/g, '\\$&')}: the REST API answered 500 on /shop/wp-json/wc/v3/products offset 18 \\(tried 4 times\\)\\. Run \\S+ ended early .*, and --missing deactivated nothing\\.`,
      ),
    );
    expect(night.writes.updates).toBe(0);
    expect([...bySku(pipeline.products()).values()].filter((product) => product.quantity === 0)).toEqual([]);
  });

  it("the plan's upper bound counts the variations: 350 products, 35 of them with 3 variations", async () => {
    store = await startWooDouble(numberedWooStore(350), [], KEYS);

    const first = await run();

    expect(first.result.code).toBe(0);
    // 455 rows (350 products, 105 variations): 420 creates (a variable product is no product of its
    // own), plus the read of the seller's products.
    expect(first.writes.creates).toBe(420);
    const planned = Number(/plan {6}up to (\d+) requests/.exec(first.result.stdout)?.[1]);
    expect(planned).toBe(456);
    expect(first.stats.total).toBeLessThanOrEqual(planned);
  });
});
