import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { readShop } from '../../../src/sources/stores/shopify/read-shop.js';
import { parseStoreSource } from '../../../src/sources/stores/store-url.js';

const ENV = { SHOPIFY_ACCESS_TOKEN: 'shpat_answers_0123456789' };

/**
 * Answers a host may give that are not the Admin API's: a shop's custom domain (or its storefront)
 * redirects to the myshopify.com host or answers with a web page. "the Admin API answered 302" and
 * "the Admin API's answer is not JSON" left the user to guess; the line says where it points, and
 * the likely mistake. From a raw server on loopback: every request answered `answer`.
 */
describe("what a host answered instead of Shopify's Admin API, named in the line that ends the read", () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.close();
    if (server) await once(server, 'close');
    server = undefined;
  });

  async function hostAnswering(answer: (req: IncomingMessage, res: ServerResponse) => void) {
    server = createServer((req, res) => {
      req.resume();
      answer(req, res);
    }).listen(0, '127.0.0.1');
    await once(server, 'listening');
    return `127.0.0.1:${(server.address() as { port: number }).port}`;
  }

  const read = (source: string) =>
    readShop(parseStoreSource(source, false), {
      env: ENV,
      allowInsecure: false,
      allowPrivateSource: false,
      timeoutMs: 5000,
      maxRecordBytes: 8 * 1024 * 1024,
      sleep: async () => {},
    });

  it('a 302 to the myshopify.com host names it, never followed, and the source to give', async () => {
    const host = await hostAnswering((req, res) => {
      res.writeHead(302, { location: `https://my-shop.myshopify.com${req.url}?token=secret` }).end();
    });

    const refused = read(`shopify+http://${host}`);

    await expect(refused).rejects.toThrow(
      `shopify+http://${host}: the Admin API answered 302: it points to another host, my-shop.myshopify.com (not followed): ` +
        'give the shop as shopify://my-shop.myshopify.com, its myshopify.com host (a custom domain only redirects)',
    );
    await expect(refused).rejects.not.toThrow(/secret/);
  });

  it('a 301 to another host that is no myshopify.com one names its host, and what to give instead', async () => {
    const host = await hostAnswering((_req, res) => {
      res.writeHead(301, { location: 'https://www.shop.example.test/' }).end();
    });

    await expect(read(`shopify+http://${host}`)).rejects.toThrow(
      `shopify+http://${host}: the Admin API answered 301: it points to another host, www.shop.example.test (not followed): ` +
        "give the shop by its myshopify.com host (shopify://my-shop.myshopify.com), not a custom domain: Shopify's admin shows it",
    );
  });

  it('an HTML page (a login page) instead of JSON says no Admin API answered there, and the likely mistake', async () => {
    const host = await hostAnswering((_req, res) => {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!DOCTYPE html><html><body><form action="/account/login">Log in</form></body></html>');
    });

    await expect(read(`shopify+http://${host}`)).rejects.toThrow(
      `shopify+http://${host}: no Admin API here (an HTML page on /admin/api/`,
    );
    await expect(read(`shopify+http://${host}`)).rejects.toThrow(
      /\/graphql\.json, not JSON\): is this the shop's myshopify\.com host \(not a custom domain or the storefront\), and is the shop open\?$/,
    );
  });
});
