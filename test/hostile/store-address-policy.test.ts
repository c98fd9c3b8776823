import { afterEach, describe, expect, it, vi } from 'vitest';
import { openSource } from '../../src/sources/index.js';
import { type ShopifyDouble, startShopifyDouble } from '../../src/sources/stores/shopify/double.js';
import { sampleShop } from '../../src/sources/stores/shopify/sample-shop.js';
import { loopbackNetwork } from './support.js';

// The network is injected (loopbackNetwork); belt and braces, whatever the code does, nothing leaves
// loopback and no real DNS is asked (see network-guard.ts).
vi.mock('node:dns/promises', async (original) => (await import('./network-guard.js')).guardedDns(original));
vi.mock('node:dns', async (original) => (await import('./network-guard.js')).guardedDnsLookup(original));
vi.mock('node:net', async (original) => (await import('./network-guard.js')).guardedNet(original));
vi.mock('node:tls', async (original) => (await import('./network-guard.js')).guardedTls(original));
vi.mock('node:http', async (original) => (await import('./network-guard.js')).guardedHttp(original));
vi.mock('node:https', async (original) => (await import('./network-guard.js')).guardedHttp(original));

const TOKEN = 'shpat_policy_token';
const store = {
  env: { SHOPIFY_ACCESS_TOKEN: TOKEN, WOO_CONSUMER_KEY: 'ck_x', WOO_CONSUMER_SECRET: 'cs_x' },
  allowInsecure: true,
  sleep: async () => {},
};

describe('a store source is held to the address policy of feeds', () => {
  let shop: ShopifyDouble | undefined;
  afterEach(async () => {
    await shop?.close();
  });

  it.each([
    [
      'a cloud metadata address',
      'http://169.254.169.254',
      'shopify+http://shop.test: refused: 169.254.169.254 is',
    ],
    [
      'loopback, from the public address of the shop',
      'http://files.test',
      'shopify+http://shop.test: refused: files.test (127.0.0.1) is a loopback address, from a public one',
    ],
  ])("Shopify's result URL on %s is refused: nothing is fetched there", async (_what, origin, why) => {
    shop = await startShopifyDouble(sampleShop(), { token: TOKEN, resultOrigin: origin });
    const network = loopbackNetwork(
      { 'shop.test': '203.0.113.5', 'files.test': '127.0.0.1' },
      { '203.0.113.5': shop.port },
    );

    const opening = openSource('shopify+http://shop.test', { network, store });

    await expect(opening).rejects.toThrow(why);
    // The shop (as its public address) was asked; the file's host never was.
    expect(network.attempts.map((attempt) => attempt.address)).toEqual(
      network.attempts.map(() => '203.0.113.5'),
    );
    expect(shop.requests.filter((request) => request.operation === 'result')).toEqual([]);
  });

  it('a WooCommerce store whose name leads to a link-local address is refused before any request', async () => {
    const network = loopbackNetwork({ 'store.test': '169.254.10.20' });

    await expect(openSource('woocommerce://store.test', { network, store })).rejects.toThrow(
      /woocommerce:\/\/store\.test: refused: store\.test \(169\.254\.10\.20\) is .*--allow-private-source allows it/,
    );
    expect(network.attempts).toEqual([]);
  });
});
