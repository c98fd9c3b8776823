import { quoteForMessage } from '../../../terminal-safe.js';
import type { CallAnswer } from '../http-call.js';

/**
 * The line of an answer that is no answer of Shopify's Admin API: a redirect or a web page, which is
 * what a shop's custom domain (or its storefront) gives where the myshopify.com host has the API.
 * What the host said is named, and the likely mistake, so the user can act on it.
 */

/**
 * A redirect, never followed (the token would go where the source did not say): the host it points
 * to (its path and query are that host's business, and may hold what they were sent), or the address
 * on the same host (a password or login page).
 */
export function adminRedirectLine(failed: string, url: URL, location: string | string[] | undefined): string {
  let to: URL;
  try {
    to = new URL(Array.isArray(location) ? (location[0] ?? '') : (location ?? ''), url);
  } catch {
    return `${failed}: is this the shop's myshopify.com host?`;
  }
  if (location === undefined || (to.protocol !== 'https:' && to.protocol !== 'http:'))
    return `${failed}: is this the shop's myshopify.com host?`;
  if (to.host === url.host)
    return `${failed}: it points to ${quoteForMessage(`${to.origin}${to.pathname}`, 160)} (not followed): is this the shop's myshopify.com host, and is the shop open?`;
  const host = quoteForMessage(to.host, 80);
  const where = `${failed}: it points to another host, ${host} (not followed)`;
  return /\.myshopify\.com$/i.test(to.hostname)
    ? `${where}: give the shop as shopify://${host}, its myshopify.com host (a custom domain only redirects)`
    : `${where}: give the shop by its myshopify.com host (shopify://my-shop.myshopify.com), not a custom domain: Shopify's admin shows it`;
}

/** A web page (a storefront, a login or password page) where the Admin API's JSON was asked for. */
export function htmlPageLine(url: URL): string {
  return `no Admin API here (an HTML page on ${url.pathname}, not JSON): is this the shop's myshopify.com host (not a custom domain or the storefront), and is the shop open?`;
}

/** An answer that is a web page, not the API's JSON (which a wrong content type alone does not make one). */
export function isWebPage(answer: CallAnswer): boolean {
  const type = answer.headers['content-type'] ?? '';
  return /^\s*</.test(answer.body) || (/text\/html/i.test(type) && !/^\s*[{[]/.test(answer.body));
}
