import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWooDouble, type WooDouble } from '../../../src/sources/stores/woocommerce/double.js';
import { sampleCategories } from '../../../src/sources/stores/woocommerce/sample-store.js';
import { runIdOf } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';
import { oneLine, runStore, type Waits } from './store-cli.js';
import { simpleWooStore } from './woo-numbered-store.js';

const KEYS = { consumerKey: 'ck_double_0123456789', consumerSecret: 'cs_double_9876543210' };
const WOO_ENV = { WOO_CONSUMER_KEY: KEYS.consumerKey, WOO_CONSUMER_SECRET: KEYS.consumerSecret };
/** What a row queued but never sent is reported with (unsent-rows.ts). */
const UNSENT = 'not sent: the source broke before its turn (run it again)';

describe('a store that fails half way through the read, after the run wrote', () => {
  const pipeline = usePipeline();
  let woo: WooDouble | undefined;
  let waits: Waits = { asked: [] };
  beforeEach(() => {
    waits = { asked: [] };
  });
  afterEach(async () => {
    await woo?.close();
    woo = undefined;
  });
  const runWoo = (...args: string[]) => runStore(pipeline, woo!.source, args, WOO_ENV, waits);

  /** Resolves once the sandbox Seller API has taken a PUT (the gate of a page that fails later). */
  async function untilPut(): Promise<void> {
    const giveUp = Date.now() + 30_000;
    while ((pipeline.sandbox.stats().byRoute['PUT /products'] ?? 0) === 0 && Date.now() < giveUp) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it("WooCommerce: a login page half way through: its line and the run's, one sentence each (exit 2)", async () => {
    woo = await startWooDouble(simpleWooStore(250), sampleCategories(), { ...KEYS });
    woo.seams.failPage = { offset: 99, answer: 'html' };

    const broken = await runWoo();

    expect(broken.result.code).toBe(2);
    const id = runIdOf(broken.result.stdout);
    // Was `…login or maintenance page?. Run …`.
    expect(oneLine(broken.result.stderr)).toContain(
      'is the site behind a login or maintenance page? ' +
        `Run ${id} ended early after 100 rows of the source`,
    );
  });

  it('WooCommerce: page 3 answers 500 on every try: the summary, the report and one line naming the cause and the run (exit 2)', async () => {
    const products = simpleWooStore(250);
    woo = await startWooDouble(products, sampleCategories(), { ...KEYS });
    expect((await runWoo()).result.code).toBe(0);
    // A price changed in the store, on page 1; page 3 (offset 198: pages overlap by one) fails once the
    // run has written it. Its first 100 rows were queued as a chunk; the next 99, read, were not yet:
    // they are rows read all the same, counted and reported, not sent.
    products[5]!.regular_price = '12.00';
    woo.seams.failPage = { offset: 198, answer: 500, before: untilPut };

    const broken = await runWoo();

    expect(broken.result.code).toBe(2);
    const id = runIdOf(broken.result.stdout);
    expect(broken.result.stdout).toContain(`run ${id}: ended early after`);
    expect(broken.result.stdout).toMatch(
      /rows {6}199: 0 created, 1 updated, \d+ unchanged, 0 invalid, \d+ failed/,
    );
    expect(broken.result.stdout).toMatch(/ {2}report {4}\S+\.csv/);
    expect(oneLine(broken.result.stderr)).toBe(
      `catalog-sync: ${woo.source}: the REST API answered 500 on /shop/wp-json/wc/v3/products offset 198 (tried 4 times). ` +
        `Run ${id} ended early after 199 rows of the source: what it wrote stays written (0 created, 1 updated); ` +
        `the rest of the source was not synced. Each row read: catalog-sync report ${id}. ` +
        'Run it again once the source reads to its end',
    );
    // The write happened, once, and the report says so; every row read has its line.
    expect(broken.writes).toMatchObject({ creates: 0, updates: 1 });
    expect(pipeline.products().find((product) => product.sku === 'P-6')?.price).toBe(12);
    expect(broken.report).toHaveLength(199);
    expect(broken.report.find((line) => line.key === 'P-6')).toMatchObject({
      action: 'update',
      status: 'ok',
    });
    for (const line of broken.report) {
      if (line.key === 'P-6') continue;
      expect([line.action, line.status, line.error]).toSatisfy(
        ([action, status, error]: string[]) =>
          (action === 'unchanged' && status === 'ok' && error === '') ||
          (action === 'skipped' && status === 'failed' && error === UNSENT),
      );
    }
    // 1 s, 2 s, 4 s between the four tries of page 3.
    expect(waits.asked).toEqual([1000, 2000, 4000]);
    const status = JSON.parse((await pipeline.cli(['status', id, '--json'])).stdout) as Record<
      string,
      unknown
    >;
    expect(status.stateText).toMatch(/^ended early/);
  });

  it('WooCommerce: the connection dropped on page 3 at every try is the same, named as such', async () => {
    const products = simpleWooStore(250);
    woo = await startWooDouble(products, sampleCategories(), { ...KEYS });
    expect((await runWoo()).result.code).toBe(0);
    products[5]!.regular_price = '12.00';
    woo.seams.failPage = { offset: 198, answer: 'reset', before: untilPut };

    const broken = await runWoo();

    expect(broken.result.code).toBe(2);
    const id = runIdOf(broken.result.stdout);
    expect(
      oneLine(broken.result.stderr).startsWith(
        `catalog-sync: ${woo.source}: the store broke the connection: connection reset (ECONNRESET) (tried 4 times). Run ${id} ended early after 199 rows`,
      ),
    ).toBe(true);
    expect(broken.writes).toMatchObject({ updates: 1 });
    expect(broken.report).toHaveLength(199);
  });
});
