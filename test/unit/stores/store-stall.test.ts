import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SourceError } from '../../../src/sources/source-error.js';
import { callStore, openCall } from '../../../src/sources/stores/http-call.js';
import { linesOf } from '../../../src/sources/stores/json-lines.js';

/**
 * `--source-timeout` on a store's calls is the stall rule of a feed (CONTRACT: less than 1 KiB in
 * any window this long, "silent or trickling"): a store that sends one byte now and then never
 * idles long enough for an idle time-out, and held a run until it was killed.
 */
describe('a store call that trickles', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((closed) => server?.close(closed));
    server = undefined;
  });

  /** A server that sends its head, then `first`, then one byte every 20 ms for as long as it is read. */
  async function trickling(first: string, byte: string): Promise<URL> {
    server = createServer((_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(first);
      const timer = setInterval(() => res.write(byte), 20);
      res.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((ready) => server!.listen(0, '127.0.0.1', ready));
    return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/wp-json/wc/v3/products`);
  }

  it('a page that comes a byte at a time ends the call in one line, as a feed', async () => {
    const url = await trickling('[', ' ');

    const call = callStore(url, { method: 'GET', headers: {} }, 'woocommerce+http://127.0.0.1', {
      maxBytes: 10_000_000,
      timeoutMs: 300,
      allowPrivateSource: true,
    });

    await expect(call).rejects.toThrow(SourceError);
    await expect(call).rejects.toThrow(
      'woocommerce+http://127.0.0.1: the store sent less than 1 KiB in 300 ms (--source-timeout): it stalls or trickles',
    );
  });

  it('a result file that comes a byte at a time ends the read in one line', async () => {
    const url = await trickling('{"id":"gid://shopify/Product/1"}\n', ' ');
    const label = 'shopify+http://127.0.0.1';
    const answer = await openCall(url, { method: 'GET', headers: {} }, label, {
      timeoutMs: 300,
      allowPrivateSource: true,
    });

    const lines: string[] = [];
    const read = (async () => {
      for await (const line of linesOf(answer, label, 8 * 1024 * 1024, 300)) lines.push(line);
    })();

    await expect(read).rejects.toThrow(
      `${label}: the result file sent less than 1 KiB in 300 ms (--source-timeout): it stalls or trickles`,
    );
    expect(lines).toEqual(['{"id":"gid://shopify/Product/1"}']);
  });
});
