import { afterEach, describe, expect, it } from 'vitest';
import { startWooDouble, type WooDouble } from '../../../src/sources/stores/woocommerce/double.js';
import { runIdOf } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';
import { oneLine, runStore } from './store-cli.js';
import { numberedWooStore } from './woo-numbered-store.js';

const KEYS = { consumerKey: 'ck_double_0123456789', consumerSecret: 'cs_double_9876543210' };
const ENV = { WOO_CONSUMER_KEY: KEYS.consumerKey, WOO_CONSUMER_SECRET: KEYS.consumerSecret };

describe('a WooCommerce store whose pages are not where offset says never reads as complete', () => {
  const pipeline = usePipeline();
  let store: WooDouble | undefined;
  afterEach(async () => {
    await store?.close();
  });
  const run = (...args: string[]) => runStore(pipeline, store!.source, args, ENV);

  it('a cache that answers every offset with the first page: exit 2 in one line, --missing deactivates nothing', async () => {
    // 250 simple products (no variable one: numbered 1 to 9 only, then from 11 on), pages of 100.
    const products = numberedWooStore(280)
      .filter((product) => product.type === 'simple')
      .slice(0, 250);
    store = await startWooDouble(products, [], KEYS);
    const full = await run();
    expect(full.result.code).toBe(0);
    expect(pipeline.products()).toHaveLength(250);

    // The store's API, now behind a cache keyed without the query string: every page is the first.
    store.seams.ignoreOffset = true;
    const cached = await run('--missing', 'quantity=0', '--max-missing', '90%');

    expect(cached.result.code).toBe(2);
    const id = runIdOf(cached.result.stdout);
    expect(oneLine(cached.result.stderr)).toBe(
      `catalog-sync: ${store.source}: /products at offset 99 gave only items read before (100 of them): ` +
        'the store, or a cache or plugin before it, may ignore offset; the read stopped, part read only ' +
        `(--missing deactivates nothing). Run ${id} ended early after 100 rows of the source: nothing was written; ` +
        'the rest of the source was not synced, and --missing deactivated nothing. ' +
        `Each row read: catalog-sync report ${id}. Run it again once the source reads to its end`,
    );
    expect(cached.report.filter((line) => line.action === 'deactivate')).toEqual([]);
    expect(cached.writes).toMatchObject({ creates: 0, updates: 0 });
    expect(pipeline.products().filter((product) => product.quantity === 0)).toEqual([]);
  });
});
