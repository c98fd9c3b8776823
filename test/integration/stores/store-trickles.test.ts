import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { usePipeline } from '../support/pipeline.js';
import { oneLine, runStore, type Waits } from './store-cli.js';

const WOO_ENV = { WOO_CONSUMER_KEY: 'ck_double_0123456789', WOO_CONSUMER_SECRET: 'cs_double_9876543210' };

/**
 * CONTRACT: a source URL that delivers less than 1 KiB in any window of `--source-timeout` ("silent
 * or trickling") ends the run, exit 2. A store that answers every call with its head and then one
 * byte now and then never idled long enough for the idle time-out the calls had: the run went on
 * until it was killed.
 */
describe('a store that trickles', () => {
  const pipeline = usePipeline();
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((closed) => server?.close(closed));
    server = undefined;
  });

  it('WooCommerce: a page sent a byte at a time ends the run in one line, exit 2, nothing written', async () => {
    let calls = 0;
    server = createServer((_req, res) => {
      calls++;
      // JSON that never ends: `[` and then white space, one byte every 50 ms.
      res.writeHead(200, { 'content-type': 'application/json', 'x-wp-total': '250', 'x-wp-totalpages': '3' });
      res.write('[');
      const timer = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((ready) => server!.listen(0, '127.0.0.1', ready));
    const source = `woocommerce+http://127.0.0.1:${(server.address() as AddressInfo).port}/shop`;
    const waits: Waits = { asked: [] };

    const stalled = await runStore(pipeline, source, ['--source-timeout', '1s'], WOO_ENV, waits);

    expect(stalled.result.code).toBe(2);
    expect(oneLine(stalled.result.stderr)).toBe(
      `catalog-sync: ${source}: the store sent less than 1 KiB in 1 s (--source-timeout): it stalls or trickles`,
    );
    // The bound the user set is not tried again.
    expect(calls).toBe(1);
    expect(waits.asked).toEqual([]);
    expect(stalled.stats.total).toBe(0);
  });
});
