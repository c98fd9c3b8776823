import { type ApiAnswer, answer, errorAnswer } from './answers.js';
import { parsePositiveInteger, renderList } from './lists.js';
import { normalizeProduct } from './normalize.js';
import type { SandboxState } from './state.js';
import { productRepresentation } from './store.js';
import { type ValidationResult, validateProduct } from './validate.js';

/** A request that passed authentication, the daily limit and the injected faults. */
export interface RouteRequest {
  seller: string;
  /** Path relative to /api/v1, e.g. '/products'. */
  path: string;
  /** The base URL as the client addressed it, for the absolute URLs in answers. */
  baseUrl: string;
  query: URLSearchParams;
  body: string;
}

export type RouteHandler = (state: SandboxState, request: RouteRequest) => ApiAnswer;

/** Whether a handler's successful write should be exposed to `dropResponseRate`. */
export interface Route {
  handler: RouteHandler;
  write?: boolean;
}

const productRoutes: Partial<Record<string, Route>> = {
  GET: { handler: getProducts },
  POST: { handler: createProduct, write: true },
  PUT: { handler: updateProduct, write: true },
};
const orderRoutes: Partial<Record<string, Route>> = { GET: { handler: getOrders } };

/**
 * The endpoints of spec 4.1, and those of the overview in 4.3: `/seller/products` and `/seller/orders`
 * are served as the same operations as `/products` and `/orders` (one reading of "not shown").
 */
export const ROUTES: Record<string, Partial<Record<string, Route>>> = {
  '/ping': { GET: { handler: (_state, { seller }) => answer(200, { data: { status: 'ok', seller } }) } },
  '/products': productRoutes,
  '/seller/products': productRoutes,
  '/orders': orderRoutes,
  '/seller/orders': orderRoutes,
  '/categories': { GET: { handler: () => answer(200, { data: CATEGORIES }) } },
  '/stores': { GET: { handler: () => answer(200, { data: STORES }) } },
};

const CATEGORIES = [
  { id: 1, name: 'Electronics' },
  { id: 2, name: 'Home & Garden' },
  { id: 3, name: 'Clothing' },
  { id: 4, name: 'Toys' },
];
const STORES = [
  { id: 1, name: 'Main marketplace', country: 'DE' },
  { id: 2, name: 'Outlet', country: 'FR' },
];

// One body for a missing id and another seller's id: the two "cannot be told apart" (spec 2.3 rule 3).
const productNotFound = () => errorAnswer(404, 'not_found', 'product not found');
const orderNotFound = () => errorAnswer(404, 'not_found', 'order not found');

function getProducts(state: SandboxState, request: RouteRequest): ApiAnswer {
  const { store, options } = state;
  const represent = (product: Parameters<typeof productRepresentation>[0]) =>
    productRepresentation(product, options.hideFields);
  const idText = request.query.get('id');
  if (idText !== null) {
    const id = parsePositiveInteger(idText);
    if (id === null) return invalidId();
    const product = store.getProduct(request.seller, id);
    return product ? answer(200, { data: represent(product) }) : productNotFound();
  }
  return listAnswer(state, request, store.listProducts(request.seller), represent);
}

function createProduct(state: SandboxState, request: RouteRequest): ApiAnswer {
  const parsed = parseJson(request.body);
  if (!parsed.ok) return parsed.answer;
  const { acceptFields, normalize } = state.options;
  const result = validateProduct(parsed.value, 'create', { acceptFields, normalize });
  if (!result.ok) return invalidBody(result);
  const product = state.store.createProduct(request.seller, storedForm(state, result.fields));
  const { createStatus, createBody, hideFields } = state.options;
  const headers = { Location: `${request.baseUrl}${request.path}?id=${product.id}` };
  const body = createBody ? { data: productRepresentation(product, hideFields) } : undefined;
  return answer(createStatus, body, headers);
}

function updateProduct(state: SandboxState, request: RouteRequest): ApiAnswer {
  const idText = request.query.get('id');
  if (idText === null)
    return errorAnswer(400, 'missing_id', 'id: required as a query parameter', { field: 'id' });
  const id = parsePositiveInteger(idText);
  if (id === null) return invalidId();
  const parsed = parseJson(request.body);
  if (!parsed.ok) return parsed.answer;
  const { acceptFields, updateFields, normalize, ignoreOnUpdate } = state.options;
  const result = validateProduct(parsed.value, 'update', { acceptFields, updateFields, normalize });
  if (!result.ok) return invalidBody(result);
  // Ignored fields were still validated: such an API takes the body, then drops what it will not change.
  const applied = Object.fromEntries(
    Object.entries(result.fields).filter(([field]) => !ignoreOnUpdate.includes(field)),
  );
  const product = state.store.updateProduct(request.seller, id, storedForm(state, applied));
  if (!product) return productNotFound();
  return answer(200, { data: productRepresentation(product, state.options.hideFields) });
}

function getOrders(state: SandboxState, request: RouteRequest): ApiAnswer {
  const idText = request.query.get('id');
  if (idText !== null) {
    const id = parsePositiveInteger(idText);
    if (id === null) return invalidId();
    const order = state.store.getOrder(request.seller, id);
    return order ? answer(200, { data: order }) : orderNotFound();
  }
  return listAnswer(state, request, state.store.listOrders(request.seller), (order) => order);
}

function listAnswer<T extends { id: number }>(
  state: SandboxState,
  request: RouteRequest,
  items: readonly T[],
  represent: (item: T) => unknown,
): ApiAnswer {
  const { listShape, pageSize } = state.options;
  const listUrl = `${request.baseUrl}${request.path}`;
  const list = renderList(items, listShape, pageSize, request.query, listUrl, represent);
  if (!list.ok) return errorAnswer(400, 'invalid_query', list.message);
  return answer(200, list.body, list.headers);
}

/** What the store keeps of a validated body: the sandbox's own form when it normalizes. */
function storedForm(state: SandboxState, fields: Record<string, unknown>): Record<string, unknown> {
  return state.options.normalize ? normalizeProduct(fields) : fields;
}

function invalidBody(result: Extract<ValidationResult, { ok: false }>): ApiAnswer {
  return errorAnswer(400, result.code, result.message, { field: result.field, fields: result.fields });
}

function invalidId(): ApiAnswer {
  return errorAnswer(400, 'invalid_id', 'id: must be a positive integer', { field: 'id' });
}

function parseJson(body: string): { ok: true; value: unknown } | { ok: false; answer: ApiAnswer } {
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch {
    return { ok: false, answer: errorAnswer(400, 'invalid_json', 'the request body is not valid JSON') };
  }
}
