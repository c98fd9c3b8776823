import {
  STORE_MAX_ANSWER_BYTES,
  STORE_MAX_RETRIES_IN_A_ROW,
  STORE_MAX_WAIT_MS,
  WOO_MAX_PAGES,
} from '../../../defaults.js';
import { SourceError, sourceError } from '../../source-error.js';
import type { WooCredentials } from '../credentials.js';
import { callStore, connectionOf, parseJson, retryAfterMs } from '../http-call.js';
import type { StoreAddress } from '../store-url.js';
import { defaultSleep, type StoreReadOptions } from '../types.js';

export interface WooPage {
  items: Array<Record<string, unknown>>;
  /** `X-WP-TotalPages`, when the store sends it. */
  totalPages: number | null;
  /** `X-WP-Total`: the items of the whole collection, when the store sends it. */
  total: number | null;
  /** The `Link` header's `rel="next"`, when the store sends it. */
  next: string | null;
}

/**
 * The store's REST API v3 (`/wp-json/wc/v3`), with HTTP Basic authentication (consumer key and
 * secret). 429 and 503 are waited out as their Retry-After says; 401 is one line naming the
 * variables the keys came from.
 */
export class WooRestApi {
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    private readonly store: StoreAddress,
    private readonly credentials: WooCredentials,
    private readonly options: StoreReadOptions,
  ) {
    this.sleep = options.sleep ?? defaultSleep;
  }

  /** `path` under `/wp-json/wc/v3`, e.g. `/products`. */
  async page(path: string, page: number): Promise<WooPage> {
    const label = this.store.display;
    const url = new URL(`${this.store.base.href.replace(/\/$/, '')}/wp-json/wc/v3${path}`);
    url.searchParams.set('per_page', '100');
    url.searchParams.set('page', String(page));
    for (let tries = 0; ; tries++) {
      const answer = await callStore(
        url,
        { method: 'GET', headers: { authorization: this.credentials.authorization } },
        label,
        {
          ...connectionOf(this.options),
          maxBytes: STORE_MAX_ANSWER_BYTES,
        },
      );
      if (answer.status === 401)
        throw sourceError(
          label,
          `WooCommerce refused the REST API keys in ${this.credentials.variables} (401): check them, or create a key with Read access`,
        );
      if (answer.status === 403)
        throw sourceError(
          label,
          `the REST API keys in ${this.credentials.variables} may not read products (403): give the key Read access`,
        );
      if (answer.status === 404)
        throw sourceError(
          label,
          `no WooCommerce REST API here (404 on ${url.pathname}): is the site's address and path right, and are pretty permalinks on?`,
        );
      if (answer.status === 429 || answer.status === 503) {
        if (tries >= STORE_MAX_RETRIES_IN_A_ROW)
          throw new SourceError(`${label}: the store stayed busy (${answer.status}) after ${tries} waits`);
        const wait = retryAfterMs(answer.headers, (this.options.now ?? Date.now)()) ?? 5000;
        await this.sleep(Math.min(STORE_MAX_WAIT_MS, wait));
        continue;
      }
      if (answer.status < 200 || answer.status > 299)
        throw sourceError(label, `the REST API answered ${answer.status} on ${url.pathname} page ${page}`);
      const items = parseJson(answer.body, label, `page ${page} of ${path}`);
      if (!Array.isArray(items)) throw sourceError(label, `page ${page} of ${path} is not a list`);
      return {
        items: items as Array<Record<string, unknown>>,
        totalPages: count(answer.headers['x-wp-totalpages']),
        total: count(answer.headers['x-wp-total']),
        next: nextLink(answer.headers.link),
      };
    }
  }

  /**
   * Every item of a collection, page after page, by X-WP-TotalPages or else the Link header;
   * `first` is its first page when it was read already.
   */
  async *all(path: string, first?: WooPage): AsyncGenerator<Record<string, unknown>> {
    for (let page = 1; page <= WOO_MAX_PAGES; page++) {
      const answer = page === 1 && first ? first : await this.page(path, page);
      yield* answer.items;
      const more = answer.totalPages !== null ? page < answer.totalPages : answer.next !== null;
      if (!more || answer.items.length === 0) return;
    }
    throw sourceError(this.store.display, `${path} has more than ${WOO_MAX_PAGES} pages`);
  }
}

function count(header: string | string[] | undefined): number | null {
  const n = Number(Array.isArray(header) ? header[0] : header);
  return header !== undefined && Number.isSafeInteger(n) && n >= 0 ? n : null;
}

/** The `rel="next"` target of a Link header. */
function nextLink(header: string | string[] | undefined): string | null {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  const match = /<([^>]+)>\s*;\s*rel="?next"?/i.exec(text);
  return match?.[1] ?? null;
}
