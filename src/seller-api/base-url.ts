import { InvalidBaseUrlError } from './errors/invalid-base-url-error.js';

/** The version segment every base URL ends in (spec section 1 and section 9). */
const VERSION_PATH = '/api/v1';

/**
 * Validates a base URL (README, Environment: SELLER_API_BASE_URL): http(s), ending in `/api/v1`
 * (a trailing `/`
 * is accepted), no credentials, query or fragment, and `http://` only to a loopback host unless
 * `allowInsecure`, since the key travels in every request. Returns it without the trailing `/`.
 */
export function parseBaseUrl(input: string, options: { allowInsecure?: boolean } = {}): URL {
  const given = describeGiven(input);
  const text = input.trim();
  if (text === '') throw new InvalidBaseUrlError(given, 'it is empty');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidBaseUrlError(given, 'not an absolute URL (expected e.g. https://host/api/v1)');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new InvalidBaseUrlError(given, `${url.protocol}// is not supported; use https://`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new InvalidBaseUrlError(
      given,
      'credentials in the URL are not allowed; the API key is sent as a header',
    );
  }
  if (url.search !== '' || url.hash !== '') {
    throw new InvalidBaseUrlError(given, 'a query or fragment is not allowed');
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith(VERSION_PATH)) {
    throw new InvalidBaseUrlError(given, `the path must end in ${VERSION_PATH}`);
  }
  if (url.protocol === 'http:' && !options.allowInsecure && !isLoopback(url.hostname)) {
    throw new InvalidBaseUrlError(
      given,
      'http:// is allowed only to a loopback host (use https://, or --allow-insecure)',
    );
  }
  url.pathname = path;
  return url;
}

/** The full address of `path` (`/products`) under the base URL, with query parameters encoded. */
export function endpointUrl(baseUrl: URL, path: string, query: Record<string, string> = {}): URL {
  const url = new URL(baseUrl.href.replace(/\/+$/, '') + path);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url;
}

/** `url` as shown in messages: its path after the base path (`/products?page=2`), else its path. */
export function displayPath(baseUrl: URL, url: URL): string {
  const basePath = baseUrl.pathname.replace(/\/+$/, '');
  const path = url.pathname.startsWith(`${basePath}/`) ? url.pathname.slice(basePath.length) : url.pathname;
  const shown = url.origin === baseUrl.origin ? path : `${url.origin}${path}`;
  return shown + url.search;
}

/**
 * The host (and port) of a base URL that sends the key in clear, `http://` to a host that is not
 * loopback: what only `--allow-insecure` allows. Null for any other URL, or text that is none.
 */
export function plainHttpHost(baseUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return null;
  }
  return url.protocol === 'http:' && !isLoopback(url.hostname) ? url.host : null;
}

export function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}

/** What was given, safe to print: no `user:pass@`, no query or fragment. */
function describeGiven(input: string): string {
  return input
    .trim()
    .replace(/^((?:[a-z][a-z\d+.-]*:)?\/\/)?[^/?#\s]*@/i, '$1')
    .replace(/[?#].*$/s, '')
    .replace(/\s+/g, ' ')
    .slice(0, 200);
}
