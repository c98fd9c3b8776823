import { afterEach, describe, expect, it } from 'vitest';
import { PRODUCTS_BULK_QUERY } from '../../../src/sources/stores/shopify/bulk-query.js';
import { type ShopifyDouble, startShopifyDouble } from '../../../src/sources/stores/shopify/double.js';
import { sampleShop } from '../../../src/sources/stores/shopify/sample-shop.js';
import { runCli } from '../support/cli.js';
import { bySku, usePipeline } from '../support/pipeline.js';
import { runStore, type Waits } from './store-cli.js';

const TOKEN = 'shpat_in_progress_token';
/** Another client of the same app: a script exporting the orders with the same custom app's token. */
const ORDERS_QUERY = '{ orders { edges { node { id name createdAt } } } }';

/** A GraphQL call to the double as another client of the app makes it. */
async function graphql(shop: ShopifyDouble, query: string, variables: Record<string, unknown>) {
  const answer = await fetch(`${shop.origin}/admin/api/2026-10/graphql.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-shopify-access-token': TOKEN },
    body: JSON.stringify({ query, variables }),
  });
  return (await answer.json()) as { data: Record<string, { bulkOperation: { id: string } | null }> };
}

const startBulkQuery = (shop: ShopifyDouble, query: string) =>
  graphql(
    shop,
    'mutation Run($query: String!) { bulkOperationRunQuery(query: $query) { bulkOperation { id status } userErrors { field message } } }',
    {
      query,
    },
  );

const cancelBulk = (shop: ShopifyDouble, id: string) =>
  graphql(
    shop,
    'mutation Cancel($id: ID!) { bulkOperationCancel(id: $id) { bulkOperation { id status } userErrors { field message } } }',
    {
      id,
    },
  );

/** Resolves once `met()` holds; the deadline only keeps a broken run from hanging the suite. */
async function until(met: () => boolean): Promise<void> {
  const giveUp = Date.now() + 30_000;
  while (!met()) {
    if (Date.now() > giveUp) throw new Error('never met');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('a Shopify bulk query already in progress in the shop (one per app and shop)', () => {
  const pipeline = usePipeline();
  let shop: ShopifyDouble | undefined;
  afterEach(async () => {
    await shop?.close();
  });
  const run = (waits: Waits = { asked: [] }) =>
    runStore(pipeline, shop!.source, [], { SHOPIFY_ACCESS_TOKEN: TOKEN }, waits);

  it.each([
    ['SIGKILL', 2],
    ['SIGTERM', 2],
    // Done by the time the next run looks for it, just after Shopify refused it a second one.
    ['SIGKILL', 1],
  ] as const)(
    'a run stopped with %s while Shopify prepares the file (done %i looks later): the next run uses that operation',
    async (signal, looksLeft) => {
      // The operation stays RUNNING while the first run waits for it.
      shop = await startShopifyDouble(sampleShop(), { token: TOKEN, pollsBeforeDone: 1000 });
      const first = pipeline.spawn(['run', shop.source], { SHOPIFY_ACCESS_TOKEN: TOKEN });
      await until(() => shop!.operations()[0]?.status === 'RUNNING');
      first.process.kill(signal);
      expect((await first.exited).code).not.toBe(0);
      expect(pipeline.products()).toEqual([]);
      const [left] = shop.operations();
      shop.seams.pollsBeforeDone = left!.looks + looksLeft - 1;

      const next = await run();

      expect(next.result.stderr).toBe('');
      expect(next.result.code).toBe(0);
      expect(next.result.stdout).toContain(
        `store ${shop.source} (Shopify Admin API 2026-10, bulk operation of 12 objects, begun ${left!.createdAt} by another run)`,
      );
      expect(pipeline.products()).toHaveLength(5);
      expect(bySku(pipeline.products()).get('LS-S')).toMatchObject({ price: 50, sale_price: 40 });
      // One operation in all: the file Shopify prepared for the stopped run is the one read.
      expect(shop.operations().map((operation) => operation.status)).toEqual(['COMPLETED']);
      expect(shop.requests.filter((request) => request.operation === 'cancel')).toEqual([]);
    },
  );

  it('a bulk query of another client of the app is one line naming it, exit 2, no request to the Seller API; it is not canceled', async () => {
    shop = await startShopifyDouble(sampleShop(), { token: TOKEN, pollsBeforeDone: 1000 });
    await startBulkQuery(shop, ORDERS_QUERY);
    const [orders] = shop.operations();

    const refused = await run();

    expect(refused.result.code).toBe(2);
    expect(refused.result.stderr.trim().split('\n')).toEqual([
      `catalog-sync: ${shop.source}: another bulk query of this app is running in the shop (${orders!.id}, begun ${orders!.createdAt}, 0 objects so far: {orders{edges{node{id name createdAt}}}}) and Shopify runs one at a time: run again once it has ended, or cancel it where it was started; nothing was sent`,
    ]);
    expect(refused.stats.total).toBe(0);
    expect(shop.requests.filter((request) => request.operation === 'cancel')).toEqual([]);
    expect(shop.operations().map((operation) => operation.status)).toEqual(['RUNNING']);

    // Once it has ended, the next run reads the shop with an operation of its own.
    shop.seams.pollsBeforeDone = 0;
    const next = await run();
    expect(next.result.code).toBe(0);
    expect(pipeline.products()).toHaveLength(5);
    expect(shop.operations().map((operation) => operation.status)).toEqual(['COMPLETED', 'COMPLETED']);
  });

  it('an operation being canceled (CANCELING) is waited out, then the run starts its own', async () => {
    shop = await startShopifyDouble(sampleShop(), {
      token: TOKEN,
      pollsBeforeDone: 1,
      looksWhileCanceling: 2,
    });
    await startBulkQuery(shop, ORDERS_QUERY);
    const [orders] = shop.operations();
    await cancelBulk(shop, orders!.id);
    expect(shop.operations()[0]?.status).toBe('CANCELING');
    const waits: Waits = { asked: [] };

    const next = await run(waits);

    expect(next.result.stderr).toBe('');
    expect(next.result.code).toBe(0);
    expect(pipeline.products()).toHaveLength(5);
    expect(shop.operations().map((operation) => operation.status)).toEqual(['CANCELED', 'COMPLETED']);
    expect(waits.asked[0]).toBe(1000);
  });

  it("another run's operation that its run cancels while this one waits for it: this run starts its own", async () => {
    shop = await startShopifyDouble(sampleShop(), { token: TOKEN, pollsBeforeDone: 3 });
    // Another run of this tool began the catalog's operation.
    await startBulkQuery(shop, PRODUCTS_BULK_QUERY);
    const [theirs] = shop.operations();
    let canceled = false;

    const result = await runCli(['run', shop.source], { ...pipeline.env, SHOPIFY_ACCESS_TOKEN: TOKEN }, '', {
      storeSeams: {
        // That run is stopped, and cancels its operation, while this one waits between two looks.
        sleep: async () => {
          if (canceled) return;
          canceled = true;
          await cancelBulk(shop!, theirs!.id);
        },
      },
    });

    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `store ${shop.source} (Shopify Admin API 2026-10, bulk operation of 12 objects)`,
    );
    expect(pipeline.products()).toHaveLength(5);
    expect(shop.operations().map((operation) => operation.status)).toEqual(['CANCELED', 'COMPLETED']);
  });
});
