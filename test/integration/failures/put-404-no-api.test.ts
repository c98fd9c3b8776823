import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisKeys } from '../../../src/runs/keys.js';
import { sellerRef } from '../../../src/sellers/seller-ref.js';
import { IdMap, type KnownProduct } from '../../../src/sync/id-map.js';
import { catalogRows } from '../support/catalog.js';
import { requestCounts } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';
import { expectExactCatalog } from './support/exact-catalog.js';
import { KEY_A, SELLER_A, useFailureRig } from './support/rig.js';

const ROWS = 12;

/**
 * A gateway in front of the sandbox on a loopback port of its own: it passes every request on,
 * until `gone` is set; then it answers 404 to every path, as a proxy whose API moved does. The
 * sandbox keeps its products meanwhile, so the API can come back as it was. (The sandbox's own
 * 404 off its API prefix, wrong-base-url.test.ts, takes another base URL: another seller ref, whose
 * id map is empty, so its run reads the list first and never sends a PUT.)
 */
async function gateway(target: string): Promise<{ baseUrl: string; server: Server; gone: boolean }> {
  const to = new URL(target);
  const state = { gone: false } as { baseUrl: string; server: Server; gone: boolean };
  state.server = createServer((incoming, outgoing) => {
    if (state.gone) {
      incoming.resume();
      outgoing.writeHead(404, { 'content-type': 'application/json' });
      outgoing.end('{"error":"not_found","message":"nothing here"}');
      return;
    }
    const forward = request(
      {
        host: to.hostname,
        port: to.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forward.on('error', () => outgoing.destroy());
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => state.server.listen(0, '127.0.0.1', resolve));
  state.baseUrl = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}/api/v1`;
  return state;
}

/**
 * `--incremental` updates mapped products by id, with no list read. When the base URL that served
 * them starts answering 404 to everything, a PUT's 404 looks like a product deleted on the
 * marketplace; the create that follows tells that no API is there (exit 2). What the tool knows of
 * the products must outlive that: once the base URL answers again, the next run updates them, and
 * creates none a second time.
 */
describe('--incremental when the base URL starts answering 404 to everything', () => {
  const rig = useFailureRig();
  let front: Server | null = null;
  afterEach(async () => {
    await new Promise((resolve) => (front ? front.close(resolve) : resolve(undefined)));
    front = null;
  });

  it('stops with exit 2 and every id mapping as it was; once it answers again, no product is created twice', {
    timeout: 60_000,
  }, async () => {
    const api = await gateway(rig.sandbox.baseUrl);
    front = api.server;
    const env = rig.env(KEY_A, { SELLER_API_BASE_URL: api.baseUrl });
    const rows = catalogRows(ROWS);
    const first = await rig.cli(['run', await rig.csv('v1.csv', rows), '--incremental'], env);
    expect(first.code, first.stderr).toBe(0);
    const skus = rows.map((row) => row.sku);
    const mappings = () =>
      withRedis(async (redis) => {
        const map = new IdMap(redis, new RedisKeys(rig.prefix), sellerRef(api.baseUrl, KEY_A));
        const known = await map.getMany(skus);
        return new Map(
          [...known].map(([sku, product]): [string, string] => [sku, (product as KnownProduct).id]),
        );
      });
    const before = await mappings();
    expect(before.size).toBe(ROWS);

    // Every price changes: each row is a PUT of its mapped product.
    const changed = rows.map((row) => ({ ...row, price: (Number(row.price) + 1).toFixed(2) }));
    const source = await rig.csv('v2.csv', changed);
    api.gone = true;

    const stopped = await rig.cli(['run', source, '--incremental', '--concurrency', '4'], env);

    expect(stopped.code, stopped.stderr).toBe(2);
    expect(stopped.stderr).toContain(`no Seller API at ${api.baseUrl}`);
    expect(await mappings()).toEqual(before);

    api.gone = false;
    rig.sandbox.resetStats();

    const again = await rig.cli(['run', source, '--incremental'], env);

    expect(again.code, again.stderr).toBe(0);
    expect(requestCounts(rig.sandbox.stats()).creates).toBe(0);
    expectExactCatalog(rig.sandbox.products(SELLER_A), changed);
    expect(await mappings()).toEqual(before);
  });
});
