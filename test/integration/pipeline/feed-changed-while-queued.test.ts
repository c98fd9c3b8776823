import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { stringify } from 'csv-stringify/sync';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';

const PRODUCTS = 120;

/** The feed of one night: PRODUCTS rows, each quantity its base plus `plus`. */
function nightlyFeed(plus: number, count = PRODUCTS): string {
  const rows = catalogRows(count).map((row, i) => ({ ...row, quantity: String((i % 7) + plus) }));
  return stringify(rows, { header: true, columns: ['sku', 'name', 'price', 'quantity'] });
}

/**
 * A feed on 127.0.0.1 that serves whatever `body` holds now, with its Content-Length; gzip with
 * `Content-Encoding: gzip` when `gzip` is set. The address stays the same from night to night.
 */
function useFeed() {
  const feed = { url: '', body: '', gzip: false };
  let server: Server | undefined;
  beforeEach(async () => {
    server = createServer((_request, response) => {
      const bytes = feed.gzip ? gzipSync(feed.body) : Buffer.from(feed.body);
      response.writeHead(200, {
        'Content-Type': 'text/csv',
        'Content-Length': bytes.length,
        ...(feed.gzip ? { 'Content-Encoding': 'gzip' } : {}),
      });
      response.end(bytes);
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    feed.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/products.csv`;
  });
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });
  return feed;
}

describe('a feed URL whose content changed while its earlier run is still queued', () => {
  // 3 s "days": the pause on the daily limit outlasts the start of tonight's run, and ends by itself.
  const pipeline = usePipeline({ dayLengthMs: 3000, resetHeader: 'x-ratelimit-reset-ms' });
  const feed = useFeed();

  it("gets a run of its own that supersedes last night's: tonight's values alone are sent, and `run` reports tonight's run", {
    timeout: 60_000,
  }, async () => {
    feed.body = nightlyFeed(0);
    const created = await pipeline.cli(['run', feed.url]);
    expect(created.code, created.stderr).toBe(0);

    // Last night: the day's requests are spent, so its run stays queued (exit 4).
    pipeline.sandbox.setFaults({ dailyLimit: 0 });
    feed.body = nightlyFeed(1000);
    const lastNight = await pipeline.cli(['run', feed.url, '--no-wait']);
    expect(lastNight.code, lastNight.stderr).toBe(4);
    const lastNightRun = runIdOf(lastNight.stderr);

    // Tonight: the feed holds tonight's quantities; the limit resets while the run waits.
    pipeline.sandbox.setFaults({ dailyLimit: 10_000 });
    pipeline.sandbox.resetStats();
    feed.body = nightlyFeed(2000);
    const tonight = await pipeline.cli(['run', feed.url]);

    expect(tonight.code, tonight.stderr).toBe(0);
    expect(runIdOf(tonight.stdout)).not.toBe(lastNightRun);
    expect(tonight.stdout).toContain(`rows      ${PRODUCTS}: 0 created, ${PRODUCTS} updated`);
    const quantities = pipeline.products().map((product) => Number(product.quantity));
    expect(quantities).toHaveLength(PRODUCTS);
    expect(quantities.every((quantity) => quantity >= 2000)).toBe(true);
    // Last night's run, still waiting out the limit, was superseded: its stale rows were never sent,
    // so the new day's requests went to tonight's values alone (before: 2 × PRODUCTS updates).
    const earlier = JSON.parse((await pipeline.cli(['status', lastNightRun, '--json'])).stdout);
    expect(earlier).toMatchObject({ state: 'cancelled', settled: PRODUCTS });
    const puts = pipeline.sandbox.requests().filter((request) => request.method === 'PUT');
    expect(puts).toHaveLength(PRODUCTS);
  });

  it.each([
    [
      'one quantity changed, the length the same',
      false,
      (text: string) => text.replace(',1000\n', ',1001\n'),
    ],
    // Past the first 64 KiB: told apart by the length the server declares.
    [
      'a row added at the end of a feed over 64 KiB',
      false,
      (text: string) => `${text}SKU-99999,Late,1.00,1\n`,
    ],
    ['one quantity changed, sent gzip-encoded', true, (text: string) => text.replace(',1000\n', ',1001\n')],
  ])(
    '`import` (no worker): the same content is the queued run, changed content (%s) a new one',
    async (_how, gzip, change) => {
      feed.gzip = gzip;
      feed.body = nightlyFeed(1000, 3000);
      expect(Buffer.byteLength(feed.body)).toBeGreaterThan(64 * 1024);
      const first = await pipeline.cli(['import', feed.url]);
      const again = await pipeline.cli(['import', feed.url]);
      feed.body = change(feed.body);
      const changed = await pipeline.cli(['import', feed.url]);

      expect([first.code, again.code, changed.code]).toEqual([0, 0, 0]);
      const queued = runIdOf(first.stdout);
      expect(again.stdout.trim()).toBe(queued);
      expect(again.stderr).toContain(`already queued as run ${queued}`);
      expect(runIdOf(changed.stdout)).not.toBe(queued);
      expect(changed.stderr).not.toContain('already queued');
    },
  );
});
