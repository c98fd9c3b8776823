import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { parseStoreSource } from '../../../src/sources/stores/store-url.js';
import { readWooStore } from '../../../src/sources/stores/woocommerce/read-store.js';

const ENV = { WOO_CONSUMER_KEY: 'ck_test_0123456789', WOO_CONSUMER_SECRET: 'cs_test_9876543210' };

/**
 * Answers a WooCommerce store may give that are not its REST API's (a redirect, a theme's HTML page)
 * or that are its errors, from a raw server on loopback: the categories answer an empty list, the
 * store's currency USD, every products request `answer`.
 */
describe('what a WooCommerce store answered, named in the line that ends the read', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.close();
    if (server) await once(server, 'close');
    server = undefined;
  });

  async function storeAnswering(answer: (req: IncomingMessage, res: ServerResponse) => void) {
    server = createServer((req, res) => {
      if (req.url?.startsWith('/shop/wp-json/wc/v3/products/categories')) {
        res.writeHead(200, { 'content-type': 'application/json', 'x-wp-total': '0', 'x-wp-totalpages': '0' });
        res.end('[]');
        return;
      }
      if (req.url?.startsWith('/shop/wp-json/wc/v3/data/currencies/current')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"code":"USD","name":"United States (US) dollar","symbol":"$"}');
        return;
      }
      answer(req, res);
    }).listen(0, '127.0.0.1');
    await once(server, 'listening');
    return `127.0.0.1:${(server.address() as { port: number }).port}`;
  }

  const read = (source: string) =>
    readWooStore(parseStoreSource(source, false), {
      env: ENV,
      allowInsecure: false,
      allowPrivateSource: false,
      timeoutMs: 5000,
      maxRecordBytes: 8 * 1024 * 1024,
      sleep: async () => {},
    });

  it('a 301 to https names where it points, never followed, and the address to give', async () => {
    const host = await storeAnswering((req, res) => {
      res.writeHead(301, { location: `https://${req.headers.host}${req.url}` }).end();
    });

    await expect(read(`woocommerce+http://${host}/shop`)).rejects.toThrow(
      `woocommerce+http://${host}/shop: the REST API answered 301 on /shop/wp-json/wc/v3/products offset 0: ` +
        `it points to https://${host}/shop/wp-json/wc/v3/products (not followed): give the store as woocommerce://${host}/shop`,
    );
  });

  it('a 301 to another host names that host only, never followed', async () => {
    const host = await storeAnswering((req, res) => {
      res.writeHead(301, { location: `https://www.example.com/shop${req.url}?token=secret` }).end();
    });

    const refused = read(`woocommerce+http://${host}/shop`);

    await expect(refused).rejects.toThrow(
      `woocommerce+http://${host}/shop: the REST API answered 301 on /shop/wp-json/wc/v3/products offset 0: ` +
        'it points to another host, www.example.com (not followed): give the store by that host if it lives there',
    );
    await expect(refused).rejects.not.toThrow(/secret/);
  });

  it('an HTML page instead of JSON says what a 404 says: the address, the permalinks, a login page', async () => {
    const host = await storeAnswering((_req, res) => {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=UTF-8' })
        .end('<!doctype html><html><body>Home</body></html>');
    });

    await expect(read(`woocommerce+http://${host}/shop`)).rejects.toThrow(
      `woocommerce+http://${host}/shop: no WooCommerce REST API here (an HTML page on /shop/wp-json/wc/v3/products, not JSON): ` +
        "is the site's address and path right, are pretty permalinks on, is the site behind a login or maintenance page?",
    );
  });

  it("a 400 quotes the store's own message, terminal-safe and cut short", async () => {
    const host = await storeAnswering((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          code: 'rest_invalid_param',
          message: `Invalid parameter(s): per_page\u001b[2J ${'x'.repeat(300)}`,
          data: { status: 400 },
        }),
      );
    });

    const refused = read(`woocommerce+http://${host}/shop`);

    await expect(refused).rejects.toThrow(
      `woocommerce+http://${host}/shop: the REST API answered 400 on /shop/wp-json/wc/v3/products offset 0: ` +
        '"Invalid parameter(s): per_page\\x1b[2J xxxxxxxx',
    );
    await expect(refused).rejects.toThrow(/x…" \(rest_invalid_param\)$/);
  });
});
