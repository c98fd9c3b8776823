import { type DoubleAnswer, type DoubleRequest, type RunningDouble, serveDouble } from '../double-server.js';

/** A product as the double's REST API gives it (the fields catalog-sync reads), with its variations. */
export interface WooProduct {
  id: number;
  name: string;
  type: 'simple' | 'variable' | 'grouped' | 'external';
  status: 'publish' | 'draft' | 'pending' | 'private';
  catalog_visibility?: 'visible' | 'catalog' | 'search' | 'hidden';
  sku?: string;
  description?: string;
  short_description?: string;
  regular_price?: string;
  sale_price?: string;
  date_on_sale_from_gmt?: string | null;
  date_on_sale_to_gmt?: string | null;
  manage_stock?: boolean;
  stock_quantity?: number | null;
  stock_status?: 'instock' | 'outofstock' | 'onbackorder';
  weight?: string;
  categories?: Array<{ id: number; name: string }>;
  tags?: Array<{ id: number; name: string }>;
  images?: Array<{ id: number; src: string }>;
  attributes?: Array<{ name: string; options: string[]; variation?: boolean }>;
  grouped_products?: number[];
  external_url?: string;
  variations?: WooVariation[];
}

export interface WooVariation {
  id: number;
  name?: string;
  sku?: string;
  status: 'publish' | 'private';
  description?: string;
  regular_price?: string;
  sale_price?: string;
  date_on_sale_from_gmt?: string | null;
  date_on_sale_to_gmt?: string | null;
  manage_stock?: boolean | 'parent';
  stock_quantity?: number | null;
  stock_status?: 'instock' | 'outofstock' | 'onbackorder';
  weight?: string;
  image?: { id: number; src: string } | null;
  attributes: Array<{ name: string; option: string }>;
}

export interface WooCategory {
  id: number;
  name: string;
  parent: number;
}

/** The double's ways to behave, as WordPress and WooCommerce do. */
export interface WooDoubleSeams {
  consumerKey: string;
  consumerSecret: string;
  /** The most items a page holds whatever per_page asks (WordPress: 100). */
  pageSize?: number;
  /** How the pages are told: X-WP-TotalPages (with X-WP-Total), or only the Link header. */
  paging?: 'total-pages' | 'link';
  /** The next this many requests are answered `busyStatus` with Retry-After `retryAfter` seconds. */
  busy?: number;
  busyStatus?: 429 | 503;
  retryAfter?: number;
  /**
   * A flaky host: requests of `/products` at this `offset` (the reader's pages overlap by one: with
   * pages of 100, offsets 0, 99, 198…) are answered `answer` (a status, `reset`: the connection
   * closed with no answer, or `html`: a login page, as a security plugin or a maintenance mode gives), `times` of them (every one when absent); `before` is awaited first (a
   * test holds the read until the run has written something; one that never resolves: a page that
   * never answers). A 429 or 503 comes with `Retry-After: retryAfter` (seconds) when given.
   */
  failPage?: {
    offset: number;
    answer: number | 'reset' | 'html';
    times?: number;
    before?: () => Promise<void>;
    retryAfter?: number;
  };
  /**
   * Not WooCommerce's own behaviour: a cache or plugin before the store that answers `/products` as
   * if no `offset` were asked (the first page, whatever the offset), X-WP-Total unchanged.
   */
  ignoreOffset?: boolean;
  /**
   * Called before a list is answered, with the request and the store's products as they are then:
   * a test changes the store while a read is under way (deletes a product, adds one) by editing them.
   */
  beforeList?: (request: WooListRequest, products: WooProduct[]) => void;
  /** The store's currency (`/data/currencies/current`); USD when absent. */
  currency?: string;
  /**
   * `/data/currencies/current` is answered 403 (`woocommerce_rest_cannot_view`), as for a key whose
   * user may read products but not manage WooCommerce, or 404 (`rest_no_route`), as by a
   * WooCommerce before 3.5.
   */
  currencyRefused?: 403 | 404;
}

/** A list request as the double saw it: `/products`, `/products/<id>/variations` or `/products/categories`. */
export interface WooListRequest {
  collection: 'products' | 'variations' | 'categories';
  /** Variations: the id of their product. */
  product?: number;
  params: URLSearchParams;
}

export interface WooDouble extends RunningDouble {
  /** `woocommerce+http://127.0.0.1:PORT/shop`. */
  source: string;
  seams: WooDoubleSeams;
  /** The store's products, served as they are at each request: edit them to change the store. */
  products: WooProduct[];
  /** Each request: its path, its `page` and `offset`, its whole query (`?…`), whether its keys were right. */
  requests: Array<{
    path: string;
    page: string | null;
    offset: string | null;
    query: string;
    authorized: boolean;
  }>;
}

/**
 * A WooCommerce site's REST API v3 on loopback, after WooCommerce's documentation: `GET
 * /wp-json/wc/v3/products`, `/products/<id>/variations` and `/products/categories`, paged by
 * `per_page` and `page` (or `offset`, which wins over `page` as in WordPress) with `X-WP-Total`,
 * `X-WP-TotalPages` and a `Link` header; `orderby=id` with `order` (products and variations default
 * to `desc`, categories to `asc`; without `orderby`, the store's own order: the array's), `type` on
 * products, and WordPress' `_fields`; a variation without a SKU of its own listed with its
 * parent's; `/data/currencies/current`, the store's currency; HTTP Basic with the consumer key and
 * secret; 401 with WordPress' error body otherwise. The site lives under `/shop` (a WordPress in a
 * folder), as `woocommerce://HOST/path` allows.
 */
export async function startWooDouble(
  products: WooProduct[],
  categories: WooCategory[],
  seams: WooDoubleSeams,
  options: { port?: number; host?: string } = {},
): Promise<WooDouble> {
  const requests: WooDouble['requests'] = [];
  const handle = async (request: DoubleRequest): Promise<DoubleAnswer> => {
    const path = request.url.pathname;
    const authorized =
      request.headers.authorization === basic(double.seams.consumerKey, double.seams.consumerSecret);
    const params = request.url.searchParams;
    const logged = {
      path,
      page: params.get('page'),
      offset: params.get('offset'),
      query: request.url.search,
    };
    requests.push({ ...logged, authorized });
    if ((double.seams.busy ?? 0) > 0) {
      double.seams.busy = (double.seams.busy ?? 0) - 1;
      const status = double.seams.busyStatus ?? 429;
      return {
        status,
        headers: { 'retry-after': String(double.seams.retryAfter ?? 3) },
        body: JSON.stringify({ code: 'too_many_requests', message: 'Too many requests.', data: { status } }),
      };
    }
    const failing = double.seams.failPage;
    if (
      failing &&
      path === '/shop/wp-json/wc/v3/products' &&
      params.get('offset') === String(failing.offset) &&
      (failing.times ?? 1) > 0
    ) {
      await failing.before?.();
      if (failing.times !== undefined) failing.times--;
      if (failing.answer === 'reset') return { status: 0, reset: true, body: '' };
      if (failing.answer === 'html')
        return {
          status: 200,
          headers: { 'content-type': 'text/html; charset=UTF-8' },
          body: '<!DOCTYPE html><html><body><form id="loginform">Log in</form></body></html>',
        };
      const answer = wooError(
        failing.answer,
        'internal_server_error',
        'There has been a critical error on this website.',
      );
      return failing.retryAfter === undefined
        ? answer
        : { ...answer, headers: { 'retry-after': String(failing.retryAfter) } };
    }
    if (path === '/shop/wp-json/wc/v3/data/currencies/current' && request.method === 'GET')
      return currentCurrency(authorized, double.seams);
    const route = /^\/shop\/wp-json\/wc\/v3\/products(?:\/(categories)|\/(\d+)\/variations)?$/.exec(path);
    if (!route || request.method !== 'GET')
      return wooError(404, 'rest_no_route', 'No route was found matching the URL and request method.');
    if (!authorized)
      return wooError(401, 'woocommerce_rest_cannot_view', 'Sorry, you cannot list resources.');
    const collection = route[1] ? 'categories' : route[2] ? 'variations' : 'products';
    double.seams.beforeList?.(
      { collection, ...(route[2] ? { product: Number(route[2]) } : {}), params },
      products,
    );
    let items: Array<{ id: number }>;
    if (route[1]) items = categories;
    else if (route[2]) {
      const product = products.find((item) => item.id === Number(route[2]));
      if (!product) return wooError(404, 'woocommerce_rest_product_invalid_id', 'Invalid ID.');
      items = (product.variations ?? []).map((variation) => asServed(variation, product));
    } else
      items = products
        .filter((product) => !params.has('type') || product.type === params.get('type'))
        .map(({ variations, ...product }) => ({
          ...product,
          variations: (variations ?? []).map((v) => v.id),
        }));
    // `include`: "Limit result set to specific ids" (WooCommerce REST API docs, List all products /
    // List all product variations), a comma-separated list as WordPress reads an array.
    const include = params.get('include')?.split(',').map(Number);
    if (include) items = items.filter((item) => include.includes(item.id));
    const url = new URL(request.url.href);
    if (double.seams.ignoreOffset && collection === 'products') url.searchParams.delete('offset');
    return paged(url, ordered(items, params, collection === 'categories' ? 'asc' : 'desc'), double.seams);
  };
  const running = await serveDouble((request) => handle(request), options);
  const double: WooDouble = {
    ...running,
    source: `woocommerce+${running.origin}/shop`,
    seams,
    products,
    requests,
  };
  return double;
}

/** `/data/currencies/current`: the store's currency as WooCommerce gives it, to a key that may read it. */
function currentCurrency(authorized: boolean, seams: WooDoubleSeams): DoubleAnswer {
  if (!authorized) return wooError(401, 'woocommerce_rest_cannot_view', 'Sorry, you cannot list resources.');
  if (seams.currencyRefused === 403)
    return wooError(403, 'woocommerce_rest_cannot_view', 'Sorry, you cannot view this resource.');
  if (seams.currencyRefused === 404)
    return wooError(404, 'rest_no_route', 'No route was found matching the URL and request method.');
  const code = seams.currency ?? 'USD';
  const names: Record<string, string> = { USD: 'United States (US) dollar', EUR: 'Euro' };
  const symbol = new Intl.NumberFormat('en', { style: 'currency', currency: code })
    .formatToParts(0)
    .find((part) => part.type === 'currency')?.value;
  return {
    status: 200,
    body: JSON.stringify({ code, name: names[code] ?? code, symbol: symbol ?? code }),
  };
}

/**
 * A variation as the REST API gives it: one without a SKU of its own shows its parent's, as
 * WC_Product_Variation::get_sku() does in the `view` context the API reads it in (PHP's empty():
 * `0` too). The export writes the variation's own, blank.
 */
function asServed(variation: WooVariation, product: WooProduct): WooVariation {
  const own = variation.sku ?? '';
  return own === '' || own === '0' ? { ...variation, sku: product.sku ?? '' } : variation;
}

/** `orderby=id` sorts by id (`order`: asc or desc, else `fallback`); any other order is the array's. */
function ordered<T extends { id: number }>(
  items: T[],
  params: URLSearchParams,
  fallback: 'asc' | 'desc',
): T[] {
  if (params.get('orderby') !== 'id') return items;
  const sign = (params.get('order') ?? fallback) === 'asc' ? 1 : -1;
  return [...items].sort((a, b) => sign * (a.id - b.id));
}

function paged(url: URL, all: Array<{ id: number }>, seams: WooDoubleSeams): DoubleAnswer {
  const perPage = Math.min(Number(url.searchParams.get('per_page') ?? 10) || 10, seams.pageSize ?? 100, 100);
  const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
  // WordPress: an offset wins over the page number.
  const offset = url.searchParams.has('offset')
    ? Math.max(0, Number(url.searchParams.get('offset')) || 0)
    : (page - 1) * perPage;
  const fields = url.searchParams.get('_fields')?.split(',');
  const items = fields ? all.map((item) => pick(item, fields)) : all;
  const pages = Math.ceil(items.length / perPage);
  const headers: Record<string, string> = {};
  if ((seams.paging ?? 'total-pages') === 'total-pages') {
    headers['x-wp-total'] = String(items.length);
    headers['x-wp-totalpages'] = String(pages);
  }
  const link = (n: number, rel: string) => {
    const target = new URL(url.href);
    target.searchParams.set('page', String(n));
    return `<${target.href}>; rel="${rel}"`;
  };
  const links = [
    ...(page > 1 ? [link(page - 1, 'prev')] : []),
    ...(page < pages ? [link(page + 1, 'next')] : []),
  ];
  if (links.length > 0) headers.link = links.join(', ');
  return { status: 200, headers, body: JSON.stringify(items.slice(offset, offset + perPage)) };
}

/** WordPress' `_fields`: only the top-level fields named. */
function pick(item: object, fields: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(item).filter(([key]) => fields.includes(key)));
}

function basic(key: string, secret: string): string {
  return `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
}

/** An error as the WooCommerce REST API answers one: `{code, message, data: {status}}`. */
function wooError(status: number, code: string, message: string): DoubleAnswer {
  return { status, body: JSON.stringify({ code, message, data: { status } }) };
}
