import { type DoubleAnswer, type DoubleRequest, type RunningDouble, serveDouble } from '../double-server.js';

/** A product as the double's Admin API holds it: the fields the bulk query asks for, in their API shapes. */
export interface ShopProduct {
  id: string;
  handle: string;
  title: string;
  descriptionHtml?: string;
  vendor?: string;
  productType?: string;
  tags?: string[];
  status: 'ACTIVE' | 'DRAFT' | 'ARCHIVED' | 'UNLISTED';
  category?: { fullName: string } | null;
  options: Array<{ name: string; position: number }>;
  media?: Array<{ id: string; image: { url: string } }>;
  variants: ShopVariant[];
}

export interface ShopVariant {
  id: string;
  sku?: string | null;
  price: string;
  compareAtPrice?: string | null;
  barcode?: string | null;
  inventoryQuantity?: number | null;
  selectedOptions: Array<{ name: string; value: string }>;
  image?: { url: string } | null;
  inventoryItem: {
    tracked: boolean;
    measurement?: { weight?: { unit: 'GRAMS' | 'KILOGRAMS' | 'OUNCES' | 'POUNDS'; value: number } | null };
  };
}

/** The double's ways to fail, as Shopify does (tests set them; the sandbox command leaves them off). */
export interface ShopifyDoubleSeams {
  /** The token the Admin API takes; any other is answered 401. */
  token: string;
  /** The next this many GraphQL calls are answered THROTTLED (with the cost extension). */
  throttled?: number;
  /** Polls that find the operation RUNNING before it is done. */
  pollsBeforeDone?: number;
  /** The operation ends FAILED (INTERNAL_SERVER_ERROR) or CANCELED instead of COMPLETED. */
  ending?: 'COMPLETED' | 'FAILED' | 'CANCELED';
  /** The result URL answers 403, as an expired signed URL does. */
  expiredResult?: boolean;
  /** Where the result URL says the file is (Shopify: a storage host); the double's own origin when absent. */
  resultOrigin?: string;
  /**
   * A flaky host: the next `times` calls of this operation are answered `answer` (a status, or
   * `reset`: the connection closed with no answer) before the double does anything with them.
   */
  failing?: { operation: 'run' | 'poll' | 'result'; answer: number | 'reset'; times: number };
}

export interface ShopifyDouble extends RunningDouble {
  /** `shopify+http://127.0.0.1:PORT`. */
  source: string;
  seams: ShopifyDoubleSeams;
  /** What each request carried (method, path, the token header's presence), in order. */
  requests: Array<{ method: string; path: string; operation: string; token: string | undefined }>;
}

const THROTTLE = { maximumAvailable: 1000, currentlyAvailable: 10, restoreRate: 50 };
const MUTATION_COST = 10;

/**
 * A shop's Admin GraphQL API on loopback, after Shopify's documentation of bulk operations: the
 * `bulkOperationRunQuery` mutation starts one, `node(id:)` or `currentBulkOperation` polls it
 * (RUNNING, objectCount growing, then COMPLETED with a `url`), and the URL serves the JSONL file:
 * each product, then its variants and media images, each a line naming it in `__parentId`. The
 * double knows the two queries catalog-sync sends, by their operation, not GraphQL at large.
 */
export async function startShopifyDouble(
  products: ShopProduct[],
  seams: ShopifyDoubleSeams,
  options: { port?: number; host?: string } = {},
): Promise<ShopifyDouble> {
  const requests: ShopifyDouble['requests'] = [];
  let operations = 0;
  let current: { id: string; polls: number } | null = null;

  const failure = (operation: string): DoubleAnswer | null => {
    const failing = double.seams.failing;
    if (!failing || failing.operation !== operation || failing.times <= 0) return null;
    failing.times--;
    if (failing.answer === 'reset') return { status: 0, reset: true, body: '' };
    return { status: failing.answer, body: '{"errors":"Internal Server Error"}' };
  };

  const handle = (request: DoubleRequest, origin: string): DoubleAnswer => {
    const path = request.url.pathname;
    const token = header(request, 'x-shopify-access-token');
    if (request.method === 'GET' && /^\/bulk-results\/\d+\.jsonl$/.test(path)) {
      requests.push({ method: 'GET', path, operation: 'result', token });
      const failed = failure('result');
      if (failed) return failed;
      if (double.seams.expiredResult)
        return {
          status: 403,
          headers: { 'content-type': 'application/xml' },
          body: '<?xml version="1.0"?><Error><Code>ExpiredToken</Code><Message>The provided token has expired.</Message></Error>',
        };
      return { status: 200, headers: { 'content-type': 'application/jsonl' }, body: resultFile(products) };
    }
    const api = /^\/admin\/api\/(\d{4}-\d{2}|unstable)\/graphql\.json$/.exec(path);
    if (!api || request.method !== 'POST') return { status: 404, body: '{"errors":"Not Found"}' };
    const body = JSON.parse(request.body || '{}') as { query?: string; variables?: { id?: string } };
    const query = body.query ?? '';
    const operation = query.includes('bulkOperationRunQuery')
      ? 'run'
      : query.includes('node(') || query.includes('currentBulkOperation')
        ? 'poll'
        : 'other';
    requests.push({ method: 'POST', path, operation, token });
    const failed = failure(operation);
    if (failed) return failed;
    if (token !== double.seams.token)
      return {
        status: 401,
        body: '{"errors":"[API] Invalid API key or access token (unrecognized login or wrong password)"}',
      };
    if ((double.seams.throttled ?? 0) > 0) {
      double.seams.throttled = (double.seams.throttled ?? 0) - 1;
      return graphql(undefined, [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }], 50);
    }
    if (operation === 'run') {
      if (current && current.polls <= (double.seams.pollsBeforeDone ?? 0))
        return graphql({
          bulkOperationRunQuery: {
            bulkOperation: null,
            userErrors: [
              {
                field: null,
                message: 'A bulk query operation for this app and shop is already in progress.',
              },
            ],
          },
        });
      operations++;
      current = { id: `gid://shopify/BulkOperation/${operations}`, polls: 0 };
      return graphql({
        bulkOperationRunQuery: { bulkOperation: { id: current.id, status: 'CREATED' }, userErrors: [] },
      });
    }
    if (operation === 'poll') {
      const asked = body.variables?.id;
      if (!current || (asked !== undefined && asked !== current.id))
        return graphql({ node: null, currentBulkOperation: null });
      current.polls++;
      const running = current.polls <= (double.seams.pollsBeforeDone ?? 0);
      const total = objectCount(products);
      const ending = double.seams.ending ?? 'COMPLETED';
      const status = running ? 'RUNNING' : ending;
      const done = status === 'COMPLETED';
      const node = {
        id: current.id,
        status,
        errorCode: status === 'FAILED' ? 'INTERNAL_SERVER_ERROR' : null,
        objectCount: String(
          running ? Math.floor((total * current.polls) / ((double.seams.pollsBeforeDone ?? 0) + 1)) : total,
        ),
        // Shopify gives no file for an operation that found nothing.
        url:
          done && total > 0
            ? `${double.seams.resultOrigin ?? origin}/bulk-results/${current.id.split('/').pop()}.jsonl?X-Goog-Signature=double`
            : null,
        partialDataUrl: null,
      };
      return graphql({ node, currentBulkOperation: node });
    }
    return graphql(undefined, [{ message: 'this double answers the bulk operation queries only' }]);
  };

  const running = await serveDouble(handle, {
    ...(options.port === undefined ? {} : { port: options.port }),
  });
  const double: ShopifyDouble = {
    ...running,
    source: `shopify+${running.origin}`,
    seams,
    requests,
  };
  return double;
}

function header(request: DoubleRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** An answer with the `extensions.cost` every Admin GraphQL answer carries. */
function graphql(data: unknown, errors?: unknown[], requested = MUTATION_COST): DoubleAnswer {
  return {
    status: 200,
    body: JSON.stringify({
      ...(data === undefined ? {} : { data }),
      ...(errors ? { errors } : {}),
      extensions: {
        cost: {
          requestedQueryCost: requested,
          actualQueryCost: errors ? null : requested,
          throttleStatus: errors
            ? THROTTLE
            : { ...THROTTLE, currentlyAvailable: THROTTLE.maximumAvailable - requested },
        },
      },
    }),
  };
}

function objectCount(products: ShopProduct[]): number {
  return products.reduce(
    (sum, product) => sum + 1 + product.variants.length + (product.media?.length ?? 0),
    0,
  );
}

/** The JSONL file: each product without its connections, then its variants, then its media. */
export function resultFile(products: ShopProduct[]): string {
  const lines: string[] = [];
  for (const { variants, media, ...product } of products) {
    lines.push(JSON.stringify(product));
    for (const variant of variants) lines.push(JSON.stringify({ ...variant, __parentId: product.id }));
    for (const item of media ?? []) lines.push(JSON.stringify({ ...item, __parentId: product.id }));
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
