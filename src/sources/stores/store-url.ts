import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { SourceError } from '../source-error.js';

export type StorePlatform = 'shopify' | 'woocommerce';

/** A store read through its own API: where its API answers, and how messages and Redis name it. */
export interface StoreAddress {
  platform: StorePlatform;
  /** The http(s) origin (and, for WooCommerce, the path of the site) the API is under; no trailing slash. */
  base: URL;
  /** `shopify://shop.myshopify.com`, as messages, reports and Redis show it: no credentials, no query. */
  display: string;
}

const STORE_SCHEME = /^(shopify|woocommerce)(\+http)?:\/\//i;

/** `shopify://…`, `woocommerce://…` and their `+http` forms (a double on loopback). */
export function isStoreSource(source: string): boolean {
  return STORE_SCHEME.test(source);
}

/** A platform's name before `:` or `//`: `woocommerce+https://`, `shopify:/host`, `shopify//host`. */
const STORE_LIKE = /^(shopify|woocommerce)(\+[a-z]*)?(:|\/\/)/i;

/**
 * The line for a source that reads as a store address a user mistyped, which isStoreSource does not
 * take (so it would be read as a file, and be `no such file`); null for any other source, and for a
 * file that does bear such a name.
 */
export function storeAddressMisfit(source: string): string | null {
  if (isStoreSource(source) || !STORE_LIKE.test(source) || existsSync(source)) return null;
  return (
    `${safeShown(source)}: looks like a store address, but no store source is written so: ` +
    'shopify://SHOP or woocommerce://HOST[/path] (https), shopify+http:// or woocommerce+http:// (plain HTTP, for a double on loopback)'
  );
}

/**
 * Reads a store source. `shopify://SHOP` and `woocommerce://HOST[/path]` are reached over https;
 * `+http` is plain HTTP, for a double on loopback: to any other host only with `--allow-insecure`
 * (the token would cross the network in clear). Credentials or a query in the URL are refused:
 * secrets come from the environment only, where they stay out of `ps` and shell history.
 */
export function parseStoreSource(source: string, allowInsecure: boolean): StoreAddress {
  const match = STORE_SCHEME.exec(source);
  if (!match) throw new SourceError(`${source}: not a store source (shopify:// or woocommerce://)`);
  const platform = match[1]!.toLowerCase() as StorePlatform;
  const plain = match[2] !== undefined;
  let url: URL;
  try {
    url = new URL(`${plain ? 'http' : 'https'}://${source.slice(match[0].length)}`);
  } catch {
    throw new SourceError(`${safeShown(source)}: not a store address (${platform}://HOST)`);
  }
  // The REST API's own path, as WooCommerce's documentation writes its URLs: the site is before it.
  if (platform === 'woocommerce') url.pathname = url.pathname.replace(/\/wp-json(?:\/.*)?$/i, '');
  const shown = `${platform}${plain ? '+http' : ''}://${url.host}${url.pathname.replace(/\/+$/, '')}`;
  if (url.username || url.password)
    throw new SourceError(
      `${shown}: credentials in the address are refused: they come from the environment (${platform === 'shopify' ? 'SHOPIFY_ACCESS_TOKEN' : 'WOO_CONSUMER_KEY and WOO_CONSUMER_SECRET'})`,
    );
  if (url.search || url.hash) throw new SourceError(`${shown}: a store address has no query or fragment`);
  if (platform === 'shopify' && url.pathname !== '/')
    throw new SourceError(
      `${shown}: a Shopify source is the shop's host only, such as shopify://shop.myshopify.com`,
    );
  if (plain && !isLoopback(url.hostname) && !allowInsecure)
    throw new SourceError(
      `${shown}: plain HTTP to a host that is not loopback would send the store's credentials in clear; use ${platform}:// (https), or --allow-insecure`,
    );
  url.pathname = url.pathname.replace(/\/+$/, '');
  return { platform, base: url, display: shown };
}

/** `shopify+http://` or `woocommerce+http://` to loopback: a double on this machine. */
export function isLoopbackDouble(store: StoreAddress): boolean {
  return store.base.protocol === 'http:' && isLoopback(store.base.hostname);
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/** A source string as a message may show it: no credentials, no query. */
function safeShown(source: string): string {
  return source.replace(/\/\/[^/@]*@/, '//').replace(/[?#].*$/, '');
}
