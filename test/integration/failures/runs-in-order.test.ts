import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { gate } from '../../support/gate.js';
import { type CatalogRow, writeCsv } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { eventually, type FailureRig, KEY_A, runDone, SELLER_A, useFailureRig } from './support/rig.js';

const ROWS = 25;
/**
 * The sandbox holds each write of the older export this long before it applies it: the seam that
 * makes the race of the two runs certain. Both runs taken at once, the older one's writes land
 * after the newer one's every time; one run after the other, they land first, whatever the delay.
 */
const OLDER_WRITE_DELAY_MS = 400;

/** The same products at the prices `cents`: SKU-1 costs 1.<cents>, SKU-2 2.<cents>… */
function pricedRows(cents: string, count = ROWS, extra: Record<string, string> = {}): CatalogRow[] {
  return Array.from({ length: count }, (_, i) => ({
    sku: `SKU-${i + 1}`,
    name: `Item ${i + 1}`,
    price: `${i + 1}.${cents}`,
    ...extra,
  }));
}

/** A PUT of a price ending in .11: a write of the older export. */
function writesOlderPrice(request: { method: string; body: string | null }): boolean {
  return request.method === 'PUT' && /"price":\d+\.11\b/.test(request.body ?? '');
}

/** The seller's catalog at .00, then the older (.11) and the newer (.22) export queued, in that order. */
async function twoExportsQueued(rig: FailureRig): Promise<{ older: string; newer: string }> {
  const base = await rig.cli(['run', await rig.csv('base.csv', pricedRows('00'))]);
  expect(base.code, base.stderr).toBe(0);
  const older = await rig.cli(['import', await rig.csv('export-0100.csv', pricedRows('11'))]);
  expect(older.code, older.stderr).toBe(0);
  const newer = await rig.cli(['import', await rig.csv('export-0200.csv', pricedRows('22'))]);
  expect(newer.code, newer.stderr).toBe(0);
  return { older: runIdOf(older.stdout), newer: runIdOf(newer.stdout) };
}

/** Both runs end done, each with its 25 updates, and the newer export's prices are what stays. */
async function expectNewerValuesStay(rig: FailureRig, runs: { older: string; newer: string }) {
  const [older, newer] = [await runDone(rig, runs.older), await runDone(rig, runs.newer)];
  expect(older.counts).toMatchObject({ updated: ROWS, failed: 0 });
  expect(newer.counts).toMatchObject({ updated: ROWS, failed: 0 });
  expectPrices(rig, pricedRows('22'));
}

describe('two queued runs of one seller, taken at once by two workers', () => {
  const rig = useFailureRig(() => ({
    latencyMs: 5,
    delayOf: (request) => (writesOlderPrice(request) ? OLDER_WRITE_DELAY_MS : 0),
  }));

  it('leaves the newer export’s values when both workers start with the two runs queued', {
    timeout: 60_000,
  }, async () => {
    const runs = await twoExportsQueued(rig);

    rig.spawn(['worker', '--concurrency', '64']);
    rig.spawn(['worker', '--concurrency', '64']);

    await expectNewerValuesStay(rig, runs);
  });

  it('leaves the newer export’s values when a rejected key’s pause is lifted with both runs queued', {
    timeout: 60_000,
  }, async () => {
    const base = await rig.cli(['run', await rig.csv('base.csv', pricedRows('00'))]);
    expect(base.code, base.stderr).toBe(0);
    rig.spawn(['worker', '--concurrency', '64']);
    rig.spawn(['worker', '--concurrency', '64']);
    rig.sandbox.revokeKey(KEY_A);
    const older = runIdOf(
      (await rig.cli(['import', await rig.csv('export-0100.csv', pricedRows('11'))])).stdout,
    );
    await eventually('the seller paused on the rejected key', async () => {
      const status = await rig.status(older);
      return status.seller.authRejected ? true : undefined;
    });
    const newer = runIdOf(
      (await rig.cli(['import', await rig.csv('export-0200.csv', pricedRows('22'))])).stdout,
    );

    rig.sandbox.addKey(KEY_A, SELLER_A);
    const resumed = await rig.cli(['resume']);
    expect(resumed.code, resumed.stderr).toBe(0);

    await expectNewerValuesStay(rig, { older, newer });
  });
});

describe('a run of one seller queued while an earlier one is still reading its feed', () => {
  const rig = useFailureRig(() => ({ latencyMs: 2 }));
  let feed: Server | undefined;
  afterEach(async () => {
    feed?.closeAllConnections();
    if (feed?.listening) await new Promise((resolve) => feed?.close(resolve));
    feed = undefined;
  });

  // Rows long enough that the first 200 pass the 64 KiB a source's start is sniffed with: the feed
  // sends them, its first chunk is queued and written, then it holds the rest until told.
  const FEED_ROWS = 250;
  const SENT_FIRST = 200;
  const WRITTEN_FIRST = 100;
  const LONG = { description: 'd'.repeat(400) };

  it('waits until the feed is read and written to its end: the newer file’s values stay', {
    timeout: 60_000,
  }, async () => {
    const base = await rig.cli(['run', await rig.csv('base.csv', pricedRows('00', FEED_ROWS, LONG))]);
    expect(base.code, base.stderr).toBe(0);
    const worker = rig.spawn(['worker'], rig.env(KEY_A, { LOG_LEVEL: 'info' }));

    const body = await feedBody(rig, pricedRows('11', FEED_ROWS, LONG));
    const cut = body.indexOf(`\nSKU-${SENT_FIRST + 1},`) + 1;
    const rest = gate();
    feed = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.write(body.slice(0, cut));
      rest.promise.then(() => res.end(body.slice(cut)));
    });
    feed.listen(0, '127.0.0.1');
    await new Promise((resolve) => feed?.once('listening', resolve));
    const url = `http://127.0.0.1:${(feed.address() as AddressInfo).port}/export.csv`;
    const importingOlder = rig.cli(['import', url]);
    const older = await eventually('the feed’s first rows written', async () => {
      const status = await rig.status();
      return status.id !== runIdOf(base.stdout) && status.settled >= WRITTEN_FIRST ? status.id : undefined;
    });

    const imported = await rig.cli(['import', await rig.csv('newer.csv', pricedRows('22', FEED_ROWS, LONG))]);
    expect(imported.code, imported.stderr).toBe(0);
    const newer = runIdOf(imported.stdout);
    // Either the newer run waits (said in the worker's log), or it was written in the meantime.
    await eventually('the newer run to wait or end', async () => {
      if (worker.stderr().includes(`run ${newer} waits for run ${older}`)) return true;
      return (await rig.status(newer)).state === 'done' ? true : undefined;
    });
    rest.open();
    expect((await importingOlder).code).toBe(0);

    await runDone(rig, older);
    await runDone(rig, newer);
    expectPrices(rig, pricedRows('22', FEED_ROWS));
  });
});

/** The text of a CSV of `rows`, as a feed serves it. */
async function feedBody(rig: FailureRig, rows: CatalogRow[]): Promise<string> {
  return readFile(await writeCsv(rig.dir, 'feed.csv', rows), 'utf8');
}

/** Each product of the seller at its row's price, once (no duplicate). */
function expectPrices(rig: FailureRig, rows: CatalogRow[]): void {
  const prices = rig.sandbox.products(SELLER_A).map((product) => `${product.sku} ${product.price}`);
  expect(prices.sort()).toEqual(rows.map((row) => `${row.sku} ${Number(row.price)}`).sort());
}
