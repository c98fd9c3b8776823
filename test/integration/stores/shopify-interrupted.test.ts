import { afterEach, describe, expect, it } from 'vitest';
import { type ShopifyDouble, startShopifyDouble } from '../../../src/sources/stores/shopify/double.js';
import { sampleShop } from '../../../src/sources/stores/shopify/sample-shop.js';
import { usePipeline } from '../support/pipeline.js';
import { runStore } from './store-cli.js';

const TOKEN = 'shpat_interrupted_token_0123456789';

/** Resolves once `met()` holds; the deadline only keeps a broken run from hanging the suite. */
async function until(met: () => boolean): Promise<void> {
  const giveUp = Date.now() + 30_000;
  while (!met()) {
    if (Date.now() > giveUp) throw new Error('never met');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('`run` interrupted while Shopify prepares its export (before the run exists)', () => {
  const pipeline = usePipeline();
  let shop: ShopifyDouble | undefined;
  afterEach(async () => {
    await shop?.close();
  });

  it.each([
    [
      'SIGINT',
      130,
      [],
      'nothing was sent; its bulk operation ends by itself in the shop, and the next run starts its own (API 2026-10 runs several at once)',
    ],
    [
      'SIGTERM',
      143,
      ['--source-api-version', '2025-10'],
      'nothing was sent; its bulk operation goes on in the shop, and the next run joins it (while the shop serves API 2025-10, which runs one at a time)',
    ],
  ] as const)(
    '%s: one line saying so and what the next run does, exit %i',
    async (signal, code, args, next) => {
      // The operation stays RUNNING while the run waits for it.
      shop = await startShopifyDouble(sampleShop(), { token: TOKEN, pollsBeforeDone: 1000 });
      const run = pipeline.spawn(['run', shop.source, ...args], { SHOPIFY_ACCESS_TOKEN: TOKEN });
      await until(() => shop!.operations()[0]?.status === 'RUNNING');

      run.process.kill(signal);
      const exited = await run.exited;

      expect(exited).toEqual({ code, signal: null });
      expect(run.stdout()).toBe('');
      expect(run.stderr()).toBe(
        `catalog-sync: interrupted (${signal}) while Shopify prepared the export of ${shop.source}: ${next}.\n`,
      );
      expect(pipeline.products()).toEqual([]);
      // Left running, never canceled: a next run may use its work.
      expect(shop.operations().map((operation) => operation.status)).toEqual(['RUNNING']);
      expect(shop.requests.filter((request) => request.operation === 'cancel')).toEqual([]);

      if (args.length > 0) {
        // The next run of the same version joins it (the double runs one at a time, as before 2026-01).
        // Still running when it looks for it, done at the look after.
        shop.seams.pollsBeforeDone = (shop.operations()[0]?.looks ?? 0) + 1;
        const again = await runStore(pipeline, shop.source, [...args], { SHOPIFY_ACCESS_TOKEN: TOKEN });
        expect(again.result.code).toBe(0);
        expect(again.result.stdout).toContain('by another run');
        expect(shop.operations()).toHaveLength(1);
      }
    },
  );

  it('SIGINT while Shopify refuses to start the operation for now (429): no operation is said to be left in the shop, exit 130', async () => {
    shop = await startShopifyDouble(sampleShop(), {
      token: TOKEN,
      failing: { operation: 'run', answer: 429, times: 1000, retryAfter: 300 },
    });
    const run = pipeline.spawn(['run', shop.source], { SHOPIFY_ACCESS_TOKEN: TOKEN });
    // The start was refused, and the run waits as Shopify asked.
    await run.waitForStderr(/asked to wait/);

    run.process.kill('SIGINT');
    const exited = await run.exited;

    expect(exited).toEqual({ code: 130, signal: null });
    expect(run.stderr().trim().split('\n').at(-1)).toBe(
      `catalog-sync: interrupted (SIGINT) before Shopify started the export of ${shop.source}: nothing was sent, and no bulk operation of this run is left in the shop.`,
    );
    expect(shop.operations()).toEqual([]);
  });
});
