/** An order as the sandbox serves it. The spec shows no order fields (2.2): these are plausible ones. */
export interface SandboxOrder {
  id: number;
  status: string;
  currency: string;
  total: number;
  lines: Array<{ sku: string; name: string; quantity: number; unit_price: number }>;
  created_at: string;
}

const STATUSES = ['paid', 'shipped', 'delivered', 'cancelled'];

/**
 * The `index`-th order seeded for a seller: the same for every run, so tests and exports can rely on it.
 * Orders are read-only through the API (spec 2.2), so these are all a seller ever has.
 */
export function seededOrder(id: number, index: number, createdAt: string): SandboxOrder {
  const lines = Array.from({ length: 1 + (index % 3) }, (_, line) => ({
    sku: `SKU-${100 + ((index * 7 + line * 3) % 50)}`,
    name: `Sample item ${line + 1}`,
    quantity: 1 + ((index + line) % 3),
    unit_price: 5 + ((index * 3 + line) % 8) * 2.5,
  }));
  const cents = lines.reduce((sum, line) => sum + Math.round(line.unit_price * 100) * line.quantity, 0);
  return {
    id,
    status: STATUSES[index % STATUSES.length] ?? 'paid',
    currency: 'EUR',
    total: cents / 100,
    lines,
    created_at: createdAt,
  };
}
