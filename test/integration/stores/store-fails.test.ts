import { once } from 'node:events';
import { createServer } from 'node:net';
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
const SHOP_ENV = { SHOPIFY_ACCESS_TOKEN: TOKEN };

/** A loopback port nothing listens on: a store that is down. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

describe('a store source out of reach, or flaky', () => {
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
  const runWoo = (...args: string[]) => runStore(pipeline, woo!.source, args, WOO_ENV, waits);
  const runShop = (...args: string[]) => runStore(pipeline, shop!.source, args, SHOP_ENV, waits);

  describe('out of reach from the start', () => {
    it.each([
      ['woocommerce', (port: number) => `woocommerce+http://127.0.0.1:${port}/shop`, WOO_ENV],
      ['shopify', (port: number) => `shopify+http://127.0.0.1:${port}`, SHOP_ENV],
    ] as const)(
      '%s: one line naming the store and the cause, exit 2, nothing sent',
      async (_name, source, env) => {
        const address = source(await closedPort());

        const refused = await runStore(pipeline, address, [], env, waits);

        expect(refused.result.code).toBe(2);
        expect(oneLine(refused.result.stderr)).toBe(
          `catalog-sync: ${address}: cannot reach the store: connection refused (ECONNREFUSED) (tried 4 times)`,
        );
        expect(refused.stats.total).toBe(0);
        expect(waits.asked).toEqual([1000, 2000, 4000]);
      },
    );
  });

  describe('now and then, as a flaky host does', () => {
    it.each([502, 504, 500, 'reset'] as const)(
      'WooCommerce: a page answered %s twice is read on the third try',
      async (answer) => {
        woo = await startWooDouble(sampleWooStore(), sampleCategories(), {
          ...KEYS,
          pageSize: 4,
          failPage: { offset: 3, answer, times: 2 },
        });

        const first = await runWoo();

        expect(first.result.stderr).toBe('');
        expect(first.result.code).toBe(0);
        expect(pipeline.products()).toHaveLength(8);
        expect(waits.asked).toEqual([1000, 2000]);
        expect(
          woo.requests
            // The pages of the read (the estimate's read of the variable products aside).
            .filter((r) => r.path === '/shop/wp-json/wc/v3/products' && !r.query.includes('type=variable'))
            .map((r) => r.offset),
        ).toEqual(['0', '3', '3', '3', '6']);
      },
    );

    it('Shopify: a poll answered 502 and a result file answered 504 are asked again', async () => {
      shop = await startShopifyDouble(sampleShop(), {
        token: TOKEN,
        failing: { operation: 'poll', answer: 502, times: 1 },
      });
      const polled = await runShop();
      expect(polled.result.code).toBe(0);
      expect(waits.asked).toEqual([1000]);
      expect(pipeline.products()).toHaveLength(5);

      waits.asked = [];
      shop.seams.failing = { operation: 'result', answer: 504, times: 1 };
      const fetched = await runShop();
      expect(fetched.result.code).toBe(0);
      expect(waits.asked).toEqual([1000]);
      expect(shop.requests.filter((r) => r.operation === 'result')).toHaveLength(3);
    });

    it.each([
      [500, 'the Admin API answered 500'],
      ['reset', 'the store broke the connection: connection reset (ECONNRESET)'],
    ] as const)(
      'Shopify: the mutation that starts the bulk operation is not sent again after a %s (it may have started one)',
      async (answer, cause) => {
        shop = await startShopifyDouble(sampleShop(), {
          token: TOKEN,
          failing: { operation: 'run', answer, times: 1 },
        });

        const failed = await runShop();

        expect(failed.result.code).toBe(2);
        expect(oneLine(failed.result.stderr)).toBe(`catalog-sync: ${shop.source}: ${cause}`);
        expect(shop.requests.filter((r) => r.operation === 'run')).toHaveLength(1);
        expect(waits.asked).toEqual([]);
        expect(failed.stats.total).toBe(0);
      },
    );
  });
});
