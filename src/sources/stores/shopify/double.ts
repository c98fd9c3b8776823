import { type DoubleAnswer, type DoubleRequest, type RunningDouble, serveDouble } from '../double-server.js';
import {
  cancelRefusal,
  type DoubleOperation,
  inProgress,
  type OperationPace,
  type OperationStatus,
  operationNode,
  statusOf,
} from './double-operations.js';
import { groupingOf, groupObjectsOf, resultFile } from './double-result-file.js';

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
export interface ShopifyDoubleSeams extends OperationPace {
  /** The token the Admin API takes; any other is answered 401. */
  token: string;
  /** The next this many GraphQL calls are answered THROTTLED (with the cost extension). */
  throttled?: number;
  /** The result URL answers 403, as an expired signed URL does. */
  expiredResult?: boolean;
  /** Where the result URL says the file is (Shopify: a storage host); the double's own origin when absent. */
  resultOrigin?: string;
  /**
   * A flaky host: the next `times` calls of this operation are answered `answer` (a status, or
   * `reset`: the connection closed with no answer) before the double does anything with them; a
   * 429 or 503 with `Retry-After: retryAfter` (seconds) when given.
   */
  failing?: {
    operation: 'run' | 'poll' | 'result';
    answer: number | 'reset';
    times: number;
    retryAfter?: number;
  };
  /** The oldest API version the shop serves (an older one is served as it); double-result-file.ts. */
  oldestSupported?: string;
  /** The file is ungrouped whatever `groupObjects` said (a shop, or an operation, that ignored it). */
  ungrouped?: boolean;
  /** This line of the result file (1-based) is not JSON. */
  brokenLine?: number;
  /**
   * The file is served cut after this many lines, as a complete answer (a body that ends at a line's
   * end with the connection's close): only its size against the operation's `fileSize` tells.
   */
  resultLines?: number;
  /** A COMPLETED operation gives no `url` though it counted objects (never an empty shop's). */
  noResultUrl?: boolean;
  /** The shop's `currencyCode` (`shop { currencyCode }`); USD when absent. */
  currency?: string;
}

export interface ShopifyDouble extends RunningDouble {
  /** `shopify+http://127.0.0.1:PORT`. */
  source: string;
  seams: ShopifyDoubleSeams;
  /**
   * What each request carried (method, path, the token header's presence), in order; `operation`
   * is run, poll (`node(id:)`), current, cancel, shop (its currency), result (the file) or other.
   */
  requests: Array<{ method: string; path: string; operation: string; token: string | undefined }>;
  /** The bulk query operations started in the shop, oldest first, with their status now. */
  operations(): Array<DoubleOperation & { status: OperationStatus }>;
}

const THROTTLE = { maximumAvailable: 1000, currentlyAvailable: 10, restoreRate: 50 };
const MUTATION_COST = 10;

/**
 * A shop's Admin GraphQL API on loopback, after Shopify's documentation of bulk operations: the
 * `bulkOperationRunQuery` mutation starts one (and refuses a second while one is in progress),
 * `node(id:)` or `currentBulkOperation` polls it (RUNNING, objectCount growing, then COMPLETED with
 * a `url`), `bulkOperationCancel` cancels it (CANCELING, then CANCELED; double-operations.ts), and
 * the URL serves the JSONL file: each product, and its variants and media images, each a line
 * naming it in `__parentId`, grouped under it or not as `groupObjects` and the API version say
 * (double-result-file.ts); `shop { currencyCode }` says the shop's currency. The double knows the
 * queries catalog-sync sends by their operation, not GraphQL at large; whatever bulk query is
 * sent, the file holds the products.
 */
export async function startShopifyDouble(
  products: ShopProduct[],
  seams: ShopifyDoubleSeams,
  options: { port?: number; host?: string } = {},
): Promise<ShopifyDouble> {
  const requests: ShopifyDouble['requests'] = [];
  const operations: DoubleOperation[] = [];
  const latest = () => operations[operations.length - 1];

  const failure = (operation: string): DoubleAnswer | null => {
    const failing = double.seams.failing;
    if (!failing || failing.operation !== operation || failing.times <= 0) return null;
    failing.times--;
    if (failing.answer === 'reset') return { status: 0, reset: true, body: '' };
    return {
      status: failing.answer,
      ...(failing.retryAfter === undefined ? {} : { headers: { 'retry-after': String(failing.retryAfter) } }),
      body: '{"errors":"Internal Server Error"}',
    };
  };

  const fileOf = (operation: DoubleOperation | undefined) =>
    resultFile(products, operation?.grouped !== false && !double.seams.ungrouped, double.seams.brokenLine);

  const handle = (request: DoubleRequest, origin: string): DoubleAnswer => {
    const path = request.url.pathname;
    const token = header(request, 'x-shopify-access-token');
    const file = /^\/bulk-results\/(\d+)\.jsonl$/.exec(path);
    if (request.method === 'GET' && file) {
      requests.push({ method: 'GET', path, operation: 'result', token });
      const failed = failure('result');
      if (failed) return failed;
      if (double.seams.expiredResult)
        return {
          status: 403,
          headers: { 'content-type': 'application/xml' },
          body: '<?xml version="1.0"?><Error><Code>ExpiredToken</Code><Message>The provided token has expired.</Message></Error>',
        };
      const whole = fileOf(operations[Number(file[1]) - 1]);
      const { resultLines } = double.seams;
      return {
        status: 200,
        headers: { 'content-type': 'application/jsonl' },
        body:
          resultLines === undefined
            ? whole
            : whole
                .split('\n')
                .slice(0, resultLines)
                .map((line) => `${line}\n`)
                .join(''),
      };
    }
    const api = /^\/admin\/api\/(\d{4}-\d{2}|unstable)\/graphql\.json$/.exec(path);
    if (!api || request.method !== 'POST') return { status: 404, body: '{"errors":"Not Found"}' };
    const body = JSON.parse(request.body || '{}') as {
      query?: string;
      variables?: { id?: string; query?: string } & Record<string, unknown>;
    };
    const operation = operationOf(body.query ?? '');
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
    const pace = double.seams;
    const node = (found: DoubleOperation) =>
      operationNode(found, pace, objectCount(products), Buffer.byteLength(fileOf(found)), (id) => {
        if (double.seams.noResultUrl) return null;
        const n = id.split('/').pop();
        return `${double.seams.resultOrigin ?? origin}/bulk-results/${n}.jsonl?X-Goog-Signature=double`;
      });
    if (operation === 'run') {
      const grouping = groupingOf(
        api[1] ?? '',
        groupObjectsOf(body.query ?? '', body.variables ?? {}),
        double.seams.oldestSupported,
      );
      if ('refused' in grouping) return graphql(undefined, [{ message: grouping.refused }]);
      const running = latest();
      if (running && inProgress(statusOf(running, pace)))
        return graphql({
          bulkOperationRunQuery: {
            bulkOperation: null,
            userErrors: [
              {
                field: null,
                message: `A bulk query operation for this app and shop is already in progress: ${running.id}.`,
                code: 'OPERATION_IN_PROGRESS',
              },
            ],
          },
        });
      const started: DoubleOperation = {
        id: `gid://shopify/BulkOperation/${operations.length + 1}`,
        query: body.variables?.query ?? '',
        createdAt: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        looks: 0,
        grouped: grouping.grouped,
      };
      operations.push(started);
      return graphql({
        bulkOperationRunQuery: { bulkOperation: { id: started.id, status: 'CREATED' }, userErrors: [] },
      });
    }
    if (operation === 'cancel') {
      const found = operations.find((candidate) => candidate.id === body.variables?.id);
      const refused = cancelRefusal(found, pace);
      if (refused || !found)
        return graphql({
          bulkOperationCancel: {
            bulkOperation: found ? node(found) : null,
            userErrors: [{ field: ['id'], message: refused }],
          },
        });
      found.canceledAt = found.looks;
      return graphql({ bulkOperationCancel: { bulkOperation: node(found), userErrors: [] } });
    }
    if (operation === 'shop')
      return graphql({ shop: { currencyCode: double.seams.currency ?? 'USD' } }, undefined, 1);
    if (operation === 'current') {
      const found = latest();
      if (!found) return graphql({ currentBulkOperation: null });
      found.looks++;
      return graphql({ currentBulkOperation: node(found) });
    }
    if (operation === 'poll') {
      const found = operations.find((candidate) => candidate.id === body.variables?.id);
      if (!found) return graphql({ node: null });
      found.looks++;
      return graphql({ node: node(found) });
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
    operations: () => operations.map((found) => ({ ...found, status: statusOf(found, double.seams) })),
  };
  return double;
}

/** Which of the documents catalog-sync (or a test, as another client of the app) sends this is. */
function operationOf(query: string): string {
  if (query.includes('bulkOperationRunQuery')) return 'run';
  if (query.includes('bulkOperationCancel')) return 'cancel';
  if (query.includes('currentBulkOperation')) return 'current';
  if (query.includes('node(')) return 'poll';
  if (/\bshop\s*\{\s*currencyCode\s*\}/.test(query)) return 'shop';
  return 'other';
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
