import type { SandboxFaults, SandboxKey } from './options.js';
import type { LoggedRequest, TimedRequest } from './request-log.js';
import type { SandboxState } from './state.js';
import type { SandboxStats } from './stats.js';
import { productRepresentation } from './store.js';

/** A running sandbox Seller API, and the handles tests and benchmarks use to arrange and observe it. */
export interface Sandbox {
  /** `http://127.0.0.1:PORT/api/v1` */
  baseUrl: string;
  /** The first configured key, or the generated one. */
  defaultKey: SandboxKey;
  close(): Promise<void>;
  stats(): SandboxStats;
  /** Zeroes the stats and empties the request log. */
  resetStats(): void;
  /** The API requests served, oldest first (the latest 10,000), with their parsed bodies. */
  requests(): LoggedRequest[];
  /** The same requests, each with the instant it was answered (epoch ms, the sandbox's clock). */
  timedRequests(): TimedRequest[];
  addKey(key: string, seller: string): void;
  /** Later requests with this key answer 401. */
  revokeKey(key: string): void;
  /** Snapshot of the seller's products, hidden fields included, in id order. */
  products(seller: string): Array<Record<string, unknown>>;
  /** Stores products as given (unvalidated, so tests can seed odd data); returns their ids. */
  seedProducts(seller: string, products: Array<Record<string, unknown>>): string[];
  /** A change "by hand on the marketplace": merges the fields, bumps updated_at. */
  editProduct(seller: string, id: string | number, fields: Record<string, unknown>): void;
  /** Removes a product, so that a later PUT for it answers 404. */
  deleteProduct(seller: string, id: string | number): void;
  setFaults(faults: Partial<SandboxFaults>): void;
}

/** The Sandbox handles over a state; `close` is the server's. */
export function sandboxHandles(state: SandboxState, close: () => Promise<void>): Sandbox {
  const { store } = state;
  const [defaultKey] = state.options.keys;
  return {
    baseUrl: state.baseUrl,
    defaultKey: defaultKey ?? { key: '', seller: '' },
    close,
    stats: () => state.stats.snapshot(),
    resetStats: () => {
      state.stats.reset();
      state.requests.clear();
    },
    requests: () => state.requests.snapshot(),
    timedRequests: () => state.requests.timed(),
    addKey: (key, seller) => state.addKey(key, seller),
    revokeKey: (key) => state.revokeKey(key),
    products: (seller) =>
      store.listProducts(seller).map((product) => structuredClone(productRepresentation(product))),
    seedProducts(seller, products) {
      return products.map((fields) => {
        if ('id' in fields) throw new TypeError('seedProducts: the sandbox assigns ids; leave `id` out');
        return String(store.createProduct(seller, structuredClone(fields)).id);
      });
    },
    editProduct(seller, id, fields) {
      if (!store.updateProduct(seller, productId(id), structuredClone(fields))) throw notFound(seller, id);
    },
    deleteProduct(seller, id) {
      if (!store.deleteProduct(seller, productId(id))) throw notFound(seller, id);
    },
    setFaults: (faults) => state.setFaults(faults),
  };
}

function productId(id: string | number): number {
  const number = Number(id);
  if (!Number.isSafeInteger(number) || number < 1)
    throw new TypeError(`product id ${id} is not a positive integer`);
  return number;
}

function notFound(seller: string, id: string | number): Error {
  return new RangeError(`seller ${seller} has no product ${id}`);
}
