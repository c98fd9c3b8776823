import { readFile } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CHUNK_SIZE, DEFAULT_HIGH_WATER } from '../../../src/defaults.js';
import { type Gate, gate } from '../../support/gate.js';
import { type CatalogRow, catalogRows, parseCsv, writeCsv } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { eventually, type FailureRig, KEY_A, runDone, SELLER_A, useFailureRig } from './support/rig.js';

const ROWS = 25;
/**
 * The sandbox holds each write of the older export this long before it applies it: the seam that
 * makes the race of two runs certain. Both runs taken at once, the older one's writes land after
 * the newer one's every time; one run after the other, they land first, whatever the delay.
 */
const OLDER_WRITE_DELAY_MS = 400;
/** Rows long enough that 200 of them pass the 64 KiB a source's start is sniffed with. */
const LONG = { description: 'd'.repeat(400) };
/** What a row queued but never sent is reported with, once its source broke (source-broke.ts). */
const UNSENT = 'not sent: the source broke before its turn (run it again)';

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

/** Each product of the seller at its row's price, once (no duplicate). */
function expectPrices(rig: FailureRig, rows: CatalogRow[]): void {
  const prices = rig.sandbox.products(SELLER_A).map((product) => `${product.sku} ${product.price}`);
  expect(prices.sort()).toEqual(rows.map((row) => `${row.sku} ${Number(row.price)}`).sort());
}

/** `import` of `rows`, which must exit 0: resolves to the run's id. */
async function imported(rig: FailureRig, name: string, rows: CatalogRow[]): Promise<string> {
  const result = await rig.cli(['import', await rig.csv(name, rows)]);
  expect(result.code, result.stderr).toBe(0);
  return runIdOf(result.stdout);
}

/** The seller's catalog written once at .00, by a `run` of this process. */
async function baseCatalog(rig: FailureRig, rows: CatalogRow[]): Promise<string> {
  const base = await rig.cli(['run', await rig.csv('base.csv', rows)]);
  expect(base.code, base.stderr).toBe(0);
  return runIdOf(base.stdout);
}

/** Both runs end done, each with its 25 updates, and the newer export's prices are what stays. */
async function expectNewerValuesStay(rig: FailureRig, runs: { older: string; newer: string }) {
  const [older, newer] = [await runDone(rig, runs.older), await runDone(rig, runs.newer)];
  expect(older.counts).toMatchObject({ updated: ROWS, failed: 0 });
  expect(newer.counts).toMatchObject({ updated: ROWS, failed: 0 });
  expectPrices(rig, pricedRows('22'));
}

describe('runs of one seller, written in the order they were queued', () => {
  /** What a write of the older export waits for before the sandbox applies it. */
  let olderWrites: () => Promise<unknown>;
  let heldWrites = 0;
  const rig = useFailureRig(() => ({
    latencyMs: 2,
    hold: (request) => {
      if (!writesOlderPrice(request)) return undefined;
      heldWrites++;
      return olderWrites();
    },
  }));
  const feeds: Server[] = [];
  beforeEach(() => {
    olderWrites = () => sleep(OLDER_WRITE_DELAY_MS);
    heldWrites = 0;
  });
  afterEach(async () => {
    for (const feed of feeds.splice(0)) {
      feed.closeAllConnections();
      await new Promise((resolve) => feed.close(resolve));
    }
  });

  /**
   * A feed of `body` on loopback: it sends the text up to the row `firstRows + 1`, then, once `rest`
   * opens, `then` answers the rest (or breaks the connection). Resolves to its URL.
   */
  async function feed(body: string, firstRows: number, rest: Gate, then: (res: ServerResponse) => void) {
    const cut = body.indexOf(`\nSKU-${firstRows + 1},`) + 1;
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.write(body.slice(0, cut));
      rest.promise.then(() => then(res));
    });
    feeds.push(server);
    server.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/export.csv`,
      rest: body.slice(cut),
    };
  }

  it('leaves the newer export’s values when two workers start with both runs queued', {
    timeout: 60_000,
  }, async () => {
    await baseCatalog(rig, pricedRows('00'));
    const older = await imported(rig, 'export-0100.csv', pricedRows('11'));
    const newer = await imported(rig, 'export-0200.csv', pricedRows('22'));

    // Requests enough at once that neither run's writes wait for the other's in a process.
    rig.spawn(['worker', '--concurrency', '64']);
    rig.spawn(['worker', '--concurrency', '64']);

    await expectNewerValuesStay(rig, { older, newer });
  });

  it('leaves the newer export’s values when a rejected key’s pause is lifted with both runs queued', {
    timeout: 60_000,
  }, async () => {
    await baseCatalog(rig, pricedRows('00'));
    rig.spawn(['worker', '--concurrency', '64']);
    rig.spawn(['worker', '--concurrency', '64']);
    rig.sandbox.revokeKey(KEY_A);
    const older = await imported(rig, 'export-0100.csv', pricedRows('11'));
    await eventually('the seller paused on the rejected key', async () =>
      (await rig.status(older)).seller.authRejected ? true : undefined,
    );
    const newer = await imported(rig, 'export-0200.csv', pricedRows('22'));

    rig.sandbox.addKey(KEY_A, SELLER_A);
    const resumed = await rig.cli(['resume']);
    expect(resumed.code, resumed.stderr).toBe(0);

    await expectNewerValuesStay(rig, { older, newer });
  });

  it('waits for an earlier run whose feed is still being read: the newer file’s values stay', {
    timeout: 60_000,
  }, async () => {
    const FEED_ROWS = 250;
    olderWrites = async () => undefined;
    const base = await baseCatalog(rig, pricedRows('00', FEED_ROWS, LONG));
    const worker = rig.spawn(['worker'], rig.env(KEY_A, { LOG_LEVEL: 'info' }));
    const body = await readFile(
      await writeCsv(rig.dir, 'feed.csv', pricedRows('11', FEED_ROWS, LONG)),
      'utf8',
    );
    const rest = gate();
    const older = await feed(body, 200, rest, (res) => res.end(older.rest));
    const importingOlder = rig.cli(['import', older.url]);
    // Its first chunk written, the rest of the feed not sent yet.
    const olderRun = await eventually('the feed’s first rows written', async () => {
      const status = await rig.status();
      return status.id !== base && status.settled >= 100 ? status.id : undefined;
    });

    const newer = await imported(rig, 'newer.csv', pricedRows('22', FEED_ROWS, LONG));
    // Either the newer run waits (the worker says so), or it was written in the meantime.
    await eventually('the newer run to wait or end', async () => {
      if (worker.stderr().includes(`run ${newer} waits for run ${olderRun}`)) return true;
      return (await rig.status(newer)).state === 'done' ? true : undefined;
    });
    rest.open();
    expect((await importingOlder).code).toBe(0);

    await runDone(rig, olderRun);
    await runDone(rig, newer);
    expectPrices(rig, pricedRows('22', FEED_ROWS));
  });

  it('lets a run still reading its feed queue its rest, though a later run’s chunks fill the queue', {
    timeout: 120_000,
  }, async () => {
    // Two dry runs (they plan, and write nothing), in the seller's queue all the same: the earlier
    // one's feed sends 200 rows, then more than the queue holds once told; the later one reads up to
    // the queue's mark meanwhile, its chunks put back behind the feed's run.
    const mark = DEFAULT_HIGH_WATER * DEFAULT_CHUNK_SIZE;
    const feedRows = pricedRows('11', mark + 700).map((row, i) => ({
      ...row,
      description: i < 200 ? LONG.description : '',
    }));
    rig.spawn(['worker']);
    const body = await readFile(await writeCsv(rig.dir, 'feed.csv', feedRows), 'utf8');
    const rest = gate();
    const olderFeed = await feed(body, 200, rest, (res) => res.end(olderFeed.rest));
    const importingOlder = rig.cli(['import', olderFeed.url, '--dry-run']);
    const older = await eventually('the feed’s first rows planned', async () => {
      const status = await rig.status();
      return status.settled >= 100 ? status.id : undefined;
    });
    const importingNewer = rig.cli([
      'import',
      await rig.csv('big.csv', catalogRows(mark + 500)),
      '--dry-run',
    ]);
    const newer = await eventually('the later run read up to the mark', async () => {
      const status = await rig.status();
      return status.id !== older && status.total >= mark - DEFAULT_CHUNK_SIZE ? status.id : undefined;
    });

    rest.open();

    // The feed's run queues its rest (it does not wait for the later run's chunks to drain), ends,
    // then the later run goes on.
    expect((await importingOlder).code).toBe(0);
    expect((await runDone(rig, older, 90_000)).total).toBe(feedRows.length);
    expect((await importingNewer).code).toBe(0);
    expect((await runDone(rig, newer, 90_000)).total).toBe(mark + 500);
  });

  it('reports every row of a newer run put back behind an older one, whose feed broke meanwhile', {
    timeout: 60_000,
  }, async () => {
    await baseCatalog(rig, pricedRows('00'));
    const released = gate();
    olderWrites = () => released.promise;
    const worker = rig.spawn(['worker', '--concurrency', '64'], rig.env(KEY_A, { LOG_LEVEL: 'info' }));
    const older = await imported(rig, 'export-0100.csv', pricedRows('11'));
    await eventually('the older run writing', () => (heldWrites > 0 ? true : undefined));

    const body = await readFile(await writeCsv(rig.dir, 'feed.csv', pricedRows('22', 300, LONG)), 'utf8');
    const drop = gate();
    const newerFeed = await feed(body, 250, drop, (res) => res.socket?.destroy());
    const importingNewer = rig.cli(['import', newerFeed.url]);
    const waits = new RegExp(`run (\\S+) waits for run ${older}`);
    const newer = await eventually('the newer run put back', () => waits.exec(worker.stderr())?.[1]);
    drop.open();
    expect((await importingNewer).code).toBe(2);
    // Its chunks put back behind the older run (still writing) are not sent: never `done` while
    // a row of it is unsettled, and done once they are (the import settles them as it ends the run).
    const broken = await rig.status(newer);
    expect(broken.state === 'done' && broken.settled < broken.total, 'done with rows unsettled').toBe(false);
    released.open();

    await runDone(rig, older);
    const ended = await runDone(rig, newer);
    expect(ended.settled).toBe(ended.total);
    expectPrices(rig, pricedRows('11'));
    const report = parseCsv((await rig.cli(['report', newer])).stdout);
    expect(report).toHaveLength(ended.total);
    expect(new Set(report.map((line) => `${line.action}, ${line.status}, ${line.error}`))).toEqual(
      new Set([`skipped, failed, ${UNSENT}`]),
    );
  });
});
