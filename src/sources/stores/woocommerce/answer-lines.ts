import type { SecretForms } from '../../../secret-forms.js';
import { quoteForMessage } from '../../../terminal-safe.js';
import type { CallAnswer } from '../http-call.js';

/**
 * The line of an answer of a WooCommerce store that is no page of its REST API: what the store said
 * is named in it (where a redirect points, its own error message), so the user can act on it.
 */

/** WordPress' REST API prefix: what comes after the site's address. */
export const WOO_API_PATH = '/wp-json/wc/v3';

/**
 * A redirect (an http site moved to https, a domain to its www): never followed (the keys would go
 * where the store's address did not say), but named: the address on the same host, or only the
 * host of another (its path and query are that host's business), with the source to give.
 */
export function redirectLine(
  failed: string,
  url: URL,
  location: string | string[] | undefined,
  path: string,
) {
  let to: URL;
  try {
    to = new URL(Array.isArray(location) ? (location[0] ?? '') : (location ?? ''), url);
  } catch {
    return failed;
  }
  if (location === undefined || (to.protocol !== 'https:' && to.protocol !== 'http:')) return failed;
  if (to.host !== url.host)
    return `${failed}: it points to another host, ${quoteForMessage(to.host, 80)} (not followed): give the store by that host if it lives there`;
  const where = `it points to ${quoteForMessage(`${to.origin}${to.pathname}`, 160)} (not followed)`;
  const api = `${WOO_API_PATH}${path}`;
  if (!to.pathname.endsWith(api)) return `${failed}: ${where}`;
  const scheme = to.protocol === 'https:' ? 'woocommerce://' : 'woocommerce+http://';
  const site = quoteForMessage(`${to.host}${to.pathname.slice(0, -api.length)}`, 160);
  return `${failed}: ${where}: give the store as ${scheme}${site}`;
}

/**
 * A 4xx or other failure with WordPress' error body `{code, message}`: its message quoted, and code,
 * with the store's credentials replaced (before the quote is cut short, so none is left in part).
 */
export function withStoreMessage(failed: string, body: string, secrets: SecretForms): string {
  let parsed: unknown;
  try {
    parsed = secrets.redactParsed(JSON.parse(body));
  } catch {
    return failed;
  }
  const { message, code } = (parsed ?? {}) as { message?: unknown; code?: unknown };
  if (typeof message !== 'string' || message.trim() === '') return failed;
  const named = typeof code === 'string' && code !== '' ? ` (${quoteForMessage(code, 60)})` : '';
  return `${failed}: "${quoteForMessage(message, 160)}"${named}`;
}

/** An answer that is a web page (a theme's page, a login or maintenance page), not the API's JSON. */
export function isHtmlPage(answer: CallAnswer): boolean {
  const type = answer.headers['content-type'] ?? '';
  return /text\/html/i.test(type) || /^\s*</.test(answer.body);
}
