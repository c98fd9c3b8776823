import { answer, errorAnswer, type JsonAnswer } from './answers.js';
import { faultsProblem, type SandboxFaults } from './options.js';
import type { Sandbox } from './sandbox.js';

export const SEAM_PREFIX = '/__sandbox';

/**
 * The test seam, for tests that run the CLI as a subprocess and cannot call the Sandbox object.
 * Outside /api/v1, needs no key, never counted in the stats.
 *
 * GET  /__sandbox/stats                      the stats
 * POST /__sandbox/stats/reset                zero them, and empty the request log
 * GET  /__sandbox/requests                   the API requests served, oldest first, bodies parsed
 * GET  /__sandbox/products?seller=S          snapshot of S's products, hidden fields included
 * POST /__sandbox/products?seller=S          seed: a JSON array of products; answers their ids
 * PUT  /__sandbox/products?seller=S&id=N     change fields "by hand on the marketplace"
 * DELETE /__sandbox/products?seller=S&id=N   remove a product (a later PUT answers 404)
 * POST /__sandbox/faults                     {latencyMs?, failRate?, dropResponseRate?, dailyLimit?}
 * POST /__sandbox/keys                       {key, seller} adds a key; {revoke: key} revokes one
 */
export function handleSeamRequest(
  sandbox: Sandbox,
  method: string,
  path: string,
  query: URLSearchParams,
  body: string,
): JsonAnswer {
  try {
    return route(sandbox, `${method} ${path}`, query, body);
  } catch (error) {
    return errorAnswer(400, 'invalid_request', error instanceof Error ? error.message : String(error));
  }
}

function route(sandbox: Sandbox, route: string, query: URLSearchParams, body: string): JsonAnswer {
  switch (route) {
    case 'GET /stats':
      return answer(200, sandbox.stats());
    case 'GET /requests':
      return answer(200, { data: sandbox.requests() });
    case 'POST /stats/reset':
      sandbox.resetStats();
      return answer(204);
    case 'GET /products':
      return answer(200, { data: sandbox.products(requiredParam(query, 'seller')) });
    case 'POST /products': {
      const products = parse(body);
      if (!Array.isArray(products)) throw new TypeError('the body must be a JSON array of products');
      return answer(200, { data: { ids: sandbox.seedProducts(requiredParam(query, 'seller'), products) } });
    }
    case 'PUT /products':
      sandbox.editProduct(requiredParam(query, 'seller'), requiredParam(query, 'id'), objectBody(body));
      return answer(204);
    case 'DELETE /products':
      sandbox.deleteProduct(requiredParam(query, 'seller'), requiredParam(query, 'id'));
      return answer(204);
    case 'POST /faults': {
      const faults = objectBody(body) as Partial<SandboxFaults>;
      const problem = faultsProblem(faults);
      if (problem) throw new RangeError(problem);
      sandbox.setFaults(faults);
      return answer(204);
    }
    case 'POST /keys': {
      const { key, seller, revoke } = objectBody(body);
      if (typeof revoke === 'string') sandbox.revokeKey(revoke);
      else if (typeof key === 'string' && typeof seller === 'string') sandbox.addKey(key, seller);
      else throw new TypeError('the body must be {"key": …, "seller": …} or {"revoke": …}');
      return answer(204);
    }
    default:
      return errorAnswer(404, 'not_found', 'no such sandbox control endpoint');
  }
}

function requiredParam(query: URLSearchParams, name: string): string {
  const value = query.get(name);
  if (!value) throw new TypeError(`${name}: required as a query parameter`);
  return value;
}

function parse(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw new SyntaxError('the request body is not valid JSON');
  }
}

function objectBody(body: string): Record<string, unknown> {
  const value = parse(body);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError('the body must be a JSON object');
  }
  return value as Record<string, unknown>;
}
