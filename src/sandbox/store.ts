import { type SandboxOrder, seededOrder } from './orders.js';

export interface StoredProduct {
  id: number;
  fields: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

interface SellerData {
  /** In id order, which is creation order: pages are slices, never sorts. */
  products: StoredProduct[];
  productsById: Map<number, StoredProduct>;
  orders: SandboxOrder[];
}

/**
 * Every seller's products and orders, in memory. Ids are numeric, increasing and unique across
 * sellers, so another seller's id exists and must still answer 404 (spec 2.3).
 */
export class SandboxStore {
  readonly #sellers = new Map<string, SellerData>();
  #nextProductId = 1;
  #nextOrderId = 1;

  constructor(
    private readonly now: () => number,
    private readonly ordersPerSeller: number,
  ) {}

  /** Makes the seller known; its orders are seeded the first time. */
  ensureSeller(seller: string): void {
    this.#seller(seller);
  }

  createProduct(seller: string, fields: Record<string, unknown>): StoredProduct {
    const data = this.#seller(seller);
    const at = this.#timestamp();
    const product: StoredProduct = {
      id: this.#nextProductId++,
      fields: { ...fields },
      createdAt: at,
      updatedAt: at,
    };
    data.products.push(product);
    data.productsById.set(product.id, product);
    return product;
  }

  /** Changes only the fields given (partial update); undefined when the seller has no such product. */
  updateProduct(seller: string, id: number, fields: Record<string, unknown>): StoredProduct | undefined {
    const product = this.getProduct(seller, id);
    if (!product) return undefined;
    Object.assign(product.fields, fields);
    product.updatedAt = this.#timestamp();
    return product;
  }

  getProduct(seller: string, id: number): StoredProduct | undefined {
    return this.#seller(seller).productsById.get(id);
  }

  listProducts(seller: string): readonly StoredProduct[] {
    return this.#seller(seller).products;
  }

  deleteProduct(seller: string, id: number): boolean {
    const data = this.#seller(seller);
    if (!data.productsById.delete(id)) return false;
    data.products.splice(
      data.products.findIndex((product) => product.id === id),
      1,
    );
    return true;
  }

  getOrder(seller: string, id: number): SandboxOrder | undefined {
    return this.#seller(seller).orders.find((order) => order.id === id);
  }

  listOrders(seller: string): readonly SandboxOrder[] {
    return this.#seller(seller).orders;
  }

  #seller(seller: string): SellerData {
    let data = this.#sellers.get(seller);
    if (!data) {
      const at = this.#timestamp();
      const orders = Array.from({ length: this.ordersPerSeller }, (_, index) =>
        seededOrder(this.#nextOrderId++, index, at),
      );
      data = { products: [], productsById: new Map(), orders };
      this.#sellers.set(seller, data);
    }
    return data;
  }

  #timestamp(): string {
    return new Date(this.now()).toISOString();
  }
}

/** The product as the API shows it: id, the fields (minus hidden ones), then the timestamps. */
export function productRepresentation(
  product: StoredProduct,
  hideFields: readonly string[] = [],
): Record<string, unknown> {
  const shown: Record<string, unknown> = { id: product.id };
  for (const [field, value] of Object.entries(product.fields)) {
    if (!hideFields.includes(field)) shown[field] = value;
  }
  shown.created_at = product.createdAt;
  shown.updated_at = product.updatedAt;
  return shown;
}
