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
}

export interface WooDouble extends RunningDouble {
  /** `woocommerce+http://127.0.0.1:PORT/shop`. */
  source: string;
  seams: WooDoubleSeams;
  requests: Array<{ path: string; page: string | null; authorized: boolean }>;
}

/**
 * A WooCommerce site's REST API v3 on loopback, after WooCommerce's documentation: `GET
 * /wp-json/wc/v3/products`, `/products/<id>/variations` and `/products/categories`, paged by
 * `per_page` and `page` with `X-WP-Total`, `X-WP-TotalPages` and a `Link` header; HTTP Basic with
 * the consumer key and secret; 401 with WordPress' error body otherwise. The site lives under `/shop`
 * (a WordPress in a folder), as `woocommerce://HOST/path` allows.
 */
export async function startWooDouble(
  products: WooProduct[],
  categories: WooCategory[],
  seams: WooDoubleSeams,
  options: { port?: number; host?: string } = {},
): Promise<WooDouble> {
  const requests: WooDouble['requests'] = [];
  const handle = (request: DoubleRequest): DoubleAnswer => {
    const path = request.url.pathname;
    const authorized =
      request.headers.authorization === basic(double.seams.consumerKey, double.seams.consumerSecret);
    requests.push({ path, page: request.url.searchParams.get('page'), authorized });
    if ((double.seams.busy ?? 0) > 0) {
      double.seams.busy = (double.seams.busy ?? 0) - 1;
      const status = double.seams.busyStatus ?? 429;
      return {
        status,
        headers: { 'retry-after': String(double.seams.retryAfter ?? 3) },
        body: JSON.stringify({ code: 'too_many_requests', message: 'Too many requests.', data: { status } }),
      };
    }
    const route = /^\/shop\/wp-json\/wc\/v3\/products(?:\/(categories)|\/(\d+)\/variations)?$/.exec(path);
    if (!route || request.method !== 'GET')
      return wooError(404, 'rest_no_route', 'No route was found matching the URL and request method.');
    if (!authorized)
      return wooError(401, 'woocommerce_rest_cannot_view', 'Sorry, you cannot list resources.');
    let items: unknown[];
    if (route[1]) items = categories;
    else if (route[2]) {
      const product = products.find((item) => item.id === Number(route[2]));
      if (!product) return wooError(404, 'woocommerce_rest_product_invalid_id', 'Invalid ID.');
      items = product.variations ?? [];
    } else
      items = products.map(({ variations, ...product }) => ({
        ...product,
        variations: (variations ?? []).map((v) => v.id),
      }));
    return paged(request.url, items, double.seams);
  };
  const running = await serveDouble((request) => handle(request), options);
  const double: WooDouble = {
    ...running,
    source: `woocommerce+${running.origin}/shop`,
    seams,
    requests,
  };
  return double;
}

function paged(url: URL, items: unknown[], seams: WooDoubleSeams): DoubleAnswer {
  const perPage = Math.min(Number(url.searchParams.get('per_page') ?? 10) || 10, seams.pageSize ?? 100, 100);
  const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
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
  return { status: 200, headers, body: JSON.stringify(items.slice((page - 1) * perPage, page * perPage)) };
}

function basic(key: string, secret: string): string {
  return `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
}

/** An error as the WooCommerce REST API answers one: `{code, message, data: {status}}`. */
function wooError(status: number, code: string, message: string): DoubleAnswer {
  return { status, body: JSON.stringify({ code, message, data: { status } }) };
}
