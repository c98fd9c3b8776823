import { describe, expect, it } from 'vitest';
import { openSource } from '../../../src/sources/index.js';
import { SourceError } from '../../../src/sources/source-error.js';
import { isStoreSource, parseStoreSource } from '../../../src/sources/stores/store-url.js';

describe('a store source', () => {
  it('shopify:// and woocommerce:// are read over https; +http is plain HTTP', () => {
    expect(parseStoreSource('shopify://shop.myshopify.com', false).base.href).toBe(
      'https://shop.myshopify.com/',
    );
    const woo = parseStoreSource('woocommerce://example.com/shop/', false);
    expect(woo.base.href).toBe('https://example.com/shop');
    expect(woo.display).toBe('woocommerce://example.com/shop');
    expect(parseStoreSource('shopify+http://127.0.0.1:8080', false).base.href).toBe('http://127.0.0.1:8080/');
    expect(isStoreSource('SHOPIFY://x')).toBe(true);
    expect(isStoreSource('https://x')).toBe(false);
  });

  it('a WooCommerce address given with the REST API path (as its docs write URLs) is the site without it', () => {
    for (const source of [
      'woocommerce://example.com/shop/wp-json/wc/v3',
      'woocommerce://example.com/shop/wp-json/wc/v3/',
      'woocommerce://example.com/shop/wp-json/wc/v3/products',
      'woocommerce://example.com/shop/wp-json',
    ]) {
      const woo = parseStoreSource(source, false);
      expect(woo.base.href).toBe('https://example.com/shop');
      expect(woo.display).toBe('woocommerce://example.com/shop');
    }
    expect(parseStoreSource('woocommerce://example.com/wp-json/wc/v3', false).display).toBe(
      'woocommerce://example.com',
    );
  });

  it.each([
    [
      'shopify+http://shop.example.com',
      "shopify+http://shop.example.com: plain HTTP to a host that is not loopback would send the store's credentials in clear; use shopify:// (https), or --allow-insecure",
    ],
    [
      'woocommerce://ck_1:cs_2@example.com',
      'woocommerce://example.com: credentials in the address are refused: they come from the environment (WOO_CONSUMER_KEY and WOO_CONSUMER_SECRET)',
    ],
    [
      'shopify://shop.myshopify.com/admin',
      "shopify://shop.myshopify.com/admin: a Shopify source is the shop's host only, such as shopify://shop.myshopify.com",
    ],
    [
      'woocommerce://example.com/?consumer_key=ck_1',
      'woocommerce://example.com: a store address has no query or fragment',
    ],
  ])('%s is refused in one line that holds no secret', (source, line) => {
    expect(() => parseStoreSource(source, false)).toThrow(new SourceError(line));
  });

  it('--allow-insecure lets +http reach a host that is not loopback', () => {
    expect(parseStoreSource('woocommerce+http://shop.example.com', true).base.protocol).toBe('http:');
  });

  it.each([
    'woocommerce+https://shop.example.com',
    'shopify:/shop.myshopify.com',
    'Shopify:shop.myshopify.com',
    'woocommerce//shop.example.com',
  ])('%s, no file of that name: said to look like a store address, with the forms read', async (source) => {
    await expect(openSource(source)).rejects.toThrow(
      new SourceError(
        `${source}: looks like a store address, but no store source is written so: shopify://SHOP or woocommerce://HOST[/path] (https), shopify+http:// or woocommerce+http:// (plain HTTP, for a double on loopback)`,
      ),
    );
  });

  it('a misfit store address shows no credentials or query', async () => {
    await expect(openSource('woocommerce+https://ck_1:cs_2@example.com/?k=v')).rejects.toThrow(
      /^woocommerce\+https:\/\/example\.com\/: looks like a store address/,
    );
  });
});
