import { afterEach, describe, expect, it } from 'vitest';
import { startWooDouble, type WooDouble } from '../../../src/sources/stores/woocommerce/double.js';
import { sampleCategories } from '../../../src/sources/stores/woocommerce/sample-store.js';
import { usePipeline } from '../support/pipeline.js';
import { until } from '../support/until.js';
import { simpleWooStore } from './woo-numbered-store.js';

const KEYS = { consumerKey: 'ck_double_0123456789', consumerSecret: 'cs_double_9876543210' };
const WOO_ENV = { WOO_CONSUMER_KEY: KEYS.consumerKey, WOO_CONSUMER_SECRET: KEYS.consumerSecret };

/**
 * docs/operations.md: Ctrl-C or SIGTERM ends a run with 130/143 (cron's `timeout` and `docker stop`
 * escalate to SIGKILL otherwise). Half way through a WooCommerce read the reader sat in the store's
 * Retry-After wait (up to 5 min), or in a page that never answered (up to `--source-timeout`), and
 * heard the interrupt only when that ended. Each test's time-out is a few seconds: the store's wait,
 * and the page's time-out, are minutes long, so a run that exits in time did not wait them out.
 */
describe('`run` interrupted while a WooCommerce store holds the read', () => {
  const pipeline = usePipeline();
  let woo: WooDouble | undefined;
  afterEach(async () => {
    await woo?.close();
    woo = undefined;
  });

  /** Resolves once the store has been asked for the products at `offset` (pages overlap by one). */
  const asked = (offset: string) =>
    until(`the page at offset ${offset}`, () => woo!.requests.some((request) => request.offset === offset));

  it('SIGINT during a 429 with Retry-After: 400 ends at once: the wait said once, then the interrupted-read line, exit 130', {
    timeout: 15_000,
  }, async () => {
    woo = await startWooDouble(simpleWooStore(250), sampleCategories(), {
      ...KEYS,
      failPage: { offset: 99, answer: 429, retryAfter: 400 },
    });
    const run = pipeline.spawn(['run', woo.source], WOO_ENV);
    await asked('99');
    // Said as the wait begins, not when it ends: a user or a cron mail sees why nothing moves.
    await run.waitForStderr(/asked to wait/);

    run.process.kill('SIGINT');
    const exited = await run.exited;

    expect(exited).toEqual({ code: 130, signal: null });
    const lines = run.stderr().trim().split('\n');
    expect(lines.filter((line) => line.includes('asked to wait'))).toEqual([
      expect.stringMatching(
        new RegExp(
          `^catalog-sync: ${escaped(woo.source)}: the store answered 429 on /shop/wp-json/wc/v3/products offset 99 ` +
            'and asked to wait 400 s: waiting 300 s \\(the longest wait catalog-sync takes\\), resuming at \\d\\d:\\d\\d:\\d\\d UTC$',
        ),
      ),
    ]);
    expect(run.stderr()).toMatch(
      /catalog-sync: interrupted \(SIGINT\) before the source was read to the end: run \S+ is ended; /,
    );
    expect(run.stderr()).not.toMatch(/^\s+at /m);
    // Asked once: the interrupt ended the wait, no second try followed it.
    expect(woo.requests.filter((request) => request.offset === '99')).toHaveLength(1);
  });

  it('SIGTERM while a page never answers ends at once, not at --source-timeout: exit 143', {
    timeout: 15_000,
  }, async () => {
    woo = await startWooDouble(simpleWooStore(250), sampleCategories(), {
      ...KEYS,
      failPage: { offset: 99, answer: 500, before: () => new Promise<void>(() => {}) },
    });
    const run = pipeline.spawn(['run', woo.source, '--source-timeout', '5m'], WOO_ENV);
    await asked('99');

    run.process.kill('SIGTERM');
    const exited = await run.exited;

    expect(exited).toEqual({ code: 143, signal: null });
    expect(run.stderr()).toMatch(
      /catalog-sync: interrupted \(SIGTERM\) before the source was read to the end: run \S+ is ended; /,
    );
    expect(run.stderr()).not.toMatch(/^\s+at /m);
  });
});

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
