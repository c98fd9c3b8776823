import { STORE_MAX_ANSWER_BYTES, STORE_MAX_RETRIES_IN_A_ROW, WOO_MAX_PAGES } from '../../../defaults.js';
import { SecretForms } from '../../../secret-forms.js';
import { SourceError, sourceError } from '../../source-error.js';
import type { WooCredentials } from '../credentials.js';
import {
  type CallAnswer,
  callStore,
  connectionOf,
  parseJson,
  retryAfterMs,
  StoreAnswerTooLong,
} from '../http-call.js';
import { isPassingStatus, StoreTries } from '../store-tries.js';
import type { StoreAddress } from '../store-url.js';
import { waitAsAsked } from '../store-wait.js';
import { type StoreReadOptions, sleepOf } from '../types.js';
import { isHtmlPage, redirectLine, WOO_API_PATH, withStoreMessage } from './answer-lines.js';
import { pageInParts } from './page-in-parts.js';
import type { WooPage } from './woo-page.js';

export type { WooPage } from './woo-page.js';

/**
 * The store's REST API v3 (`/wp-json/wc/v3`), with HTTP Basic authentication (consumer key and
 * secret). 429 and 503 are waited out as their Retry-After says; a 500, 502 or 504, or a connection
 * refused or broken, is tried again a few times (store-tries.ts: every call here is a GET); 401 is
 * one line naming the variables the keys came from.
 */
export class WooRestApi {
  private readonly sleep: (ms: number) => Promise<void>;
  /** The longest answer read: a page, or one product, which `--max-record-bytes` may allow longer. */
  private readonly maxBytes: number;
  /** WordPress quotes the parameters it refused: a message quoting the store has them replaced. */
  private readonly secrets: SecretForms;

  constructor(
    private readonly store: StoreAddress,
    private readonly credentials: WooCredentials,
    private readonly options: StoreReadOptions,
  ) {
    this.sleep = sleepOf(options);
    this.maxBytes = Math.max(options.maxAnswerBytes ?? STORE_MAX_ANSWER_BYTES, options.maxRecordBytes);
    this.secrets = new SecretForms(credentials.secrets);
  }

  /**
   * One page of `path` under `/wp-json/wc/v3` (e.g. `/products`), 100 items at most, with `query`
   * (`page` or `offset`, `orderby`…). Null for a `/products/<id>/variations` whose product is gone
   * (deleted since it was listed): it has no variations to read any more. A page too long to be
   * one answer is read in parts (page-in-parts.ts).
   */
  async page(path: string, query: Record<string, string>): Promise<WooPage | null> {
    try {
      return await this.pageOnce(path, query);
    } catch (error) {
      // A page of ids, or of items by id, is split by pageInParts itself.
      if (
        !(error instanceof StoreAnswerTooLong) ||
        query._fields !== undefined ||
        query.include !== undefined
      )
        throw error;
      return pageInParts((p, q) => this.page(p, q), path, query, this.store.display, this.maxBytes);
    }
  }

  private async pageOnce(path: string, query: Record<string, string>): Promise<WooPage | null> {
    const label = this.store.display;
    const url = this.urlOf(path);
    url.searchParams.set('per_page', '100');
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    const which = query.offset !== undefined ? `offset ${query.offset}` : `page ${query.page ?? '1'}`;
    const variations = /\/variations$/.test(path);
    const answer = await this.call(url, path, `${url.pathname} ${which}`, variations ? [404] : []);
    if (answer.status === 404) {
      if (wooCode(answer.body) === PRODUCT_GONE) return null;
      throw noApiHere(label, url);
    }
    const items = parseJson(answer.body, label, `${which} of ${path}`);
    if (!Array.isArray(items)) throw sourceError(label, `${which} of ${path} is not a list`);
    return {
      items: items as Array<Record<string, unknown>>,
      totalPages: count(answer.headers['x-wp-totalpages']),
      total: count(answer.headers['x-wp-total']),
      next: nextLink(answer.headers.link),
    };
  }

  /**
   * One object under `/wp-json/wc/v3` (`/data/currencies/current`): its JSON, or the status of an
   * answer in `accept` (a 403 the reader carries on without), handed back rather than ended on.
   */
  async object(path: string, accept: readonly number[]): Promise<{ status: number; value?: unknown }> {
    const url = this.urlOf(path);
    const answer = await this.call(url, path, url.pathname, accept);
    if (accept.includes(answer.status)) return { status: answer.status };
    return { status: answer.status, value: parseJson(answer.body, this.store.display, path) };
  }

  private urlOf(path: string): URL {
    return new URL(`${this.store.base.href.replace(/\/$/, '')}${WOO_API_PATH}${path}`);
  }

  /**
   * A GET of `path` (at `url`, with its query) and its answer, waited out and tried again as the
   * class says; a status in `accept` is handed back as it is, any other but a 2xx JSON answer ends
   * the read in one line (`which`: the request as the line names it).
   */
  private async call(url: URL, path: string, which: string, accept: readonly number[]): Promise<CallAnswer> {
    const label = this.store.display;
    const failures = new StoreTries(true, this.sleep);
    let busy = 0;
    for (;;) {
      let answer: CallAnswer;
      try {
        answer = await callStore(
          url,
          { method: 'GET', headers: { authorization: this.credentials.authorization } },
          label,
          {
            ...connectionOf(this.options),
            maxBytes: this.maxBytes,
          },
        );
      } catch (error) {
        await failures.afterFailure(error);
        continue;
      }
      if (answer.status === 401)
        throw sourceError(
          label,
          `WooCommerce refused the REST API keys in ${this.credentials.variables} (401): check them, or create a key with Read access`,
        );
      if (accept.includes(answer.status)) return answer;
      if (answer.status === 403)
        throw sourceError(
          label,
          `the REST API keys in ${this.credentials.variables} may not read products (403): give the key Read access`,
        );
      if (answer.status === 404) throw noApiHere(label, url);
      if (answer.status === 429 || answer.status === 503) {
        if (busy >= STORE_MAX_RETRIES_IN_A_ROW)
          throw new SourceError(`${label}: the store stayed busy (${answer.status}) after ${busy} waits`);
        busy++;
        await waitAsAsked(
          `${label}: the store answered ${answer.status} on ${which}`,
          retryAfterMs(answer.headers, (this.options.now ?? Date.now)()),
          5000,
          this.options,
        );
        continue;
      }
      const failed = `${label}: the REST API answered ${answer.status} on ${which}`;
      if (isPassingStatus(answer.status)) {
        await failures.afterPassingStatus(failed);
        continue;
      }
      if (answer.status >= 300 && answer.status <= 399)
        throw new SourceError(redirectLine(failed, url, this.redacted(answer.headers.location), path));
      if (answer.status < 200 || answer.status > 299)
        throw new SourceError(withStoreMessage(failed, answer.body, this.secrets));
      if (isHtmlPage(answer) && !isJson(answer.body))
        throw sourceError(
          label,
          `no WooCommerce REST API here (an HTML page on ${url.pathname}, not JSON): is the site's address and path right, are pretty permalinks on, is the site behind a login or maintenance page?`,
        );
      return answer;
    }
  }

  /** A redirect's address as a message may quote it: a query or path may hold the keys it was sent. */
  private redacted(location: string | string[] | undefined): string | undefined {
    const first = Array.isArray(location) ? location[0] : location;
    return first === undefined ? undefined : this.secrets.redact(first);
  }

  /**
   * A whole collection that has no `offset` (the categories, `max` items at most), page after page
   * in ascending id (an item added meanwhile comes last), by X-WP-TotalPages or else the Link
   * header. A deletion meanwhile would move an item onto a page already read: when X-WP-Total
   * moved during the read, the collection is read again (twice at most).
   */
  async list(path: string, max: number): Promise<Array<Record<string, unknown>>> {
    for (let attempt = 1; ; attempt++) {
      const items: Array<Record<string, unknown>> = [];
      const totals = new Set<number | null>();
      for (let page = 1; items.length < max; page++) {
        if (page > WOO_MAX_PAGES)
          throw sourceError(this.store.display, `${path} has more than ${WOO_MAX_PAGES} pages`);
        const answer = await this.page(path, { page: String(page), orderby: 'id', order: 'asc' });
        if (!answer) break;
        totals.add(answer.total);
        items.push(...answer.items.slice(0, max - items.length));
        const more = answer.totalPages !== null ? page < answer.totalPages : answer.next !== null;
        if (!more || answer.items.length === 0) break;
      }
      if (totals.size <= 1 || attempt === 3) return items;
    }
  }
}

function noApiHere(label: string, url: URL): SourceError {
  return sourceError(
    label,
    `no WooCommerce REST API here (404 on ${url.pathname}): is the site's address and path right, and are pretty permalinks on?`,
  );
}

/** WooCommerce's code for a product id it does not know (`/products/<id>/variations` of a deleted one). */
const PRODUCT_GONE = 'woocommerce_rest_product_invalid_id';

function wooCode(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as { code?: unknown };
    return typeof parsed?.code === 'string' ? parsed.code : null;
  } catch {
    return null;
  }
}

function isJson(body: string): boolean {
  try {
    JSON.parse(body);
    return true;
  } catch {
    return false;
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
