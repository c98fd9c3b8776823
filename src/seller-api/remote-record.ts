/** A product or order as received: its id as a string ("42"), and the object as it came (id included). */
export interface RemoteRecord {
  id: string;
  fields: Record<string, unknown>;
}

/** The API's product (spec section 2.1). `fields` is the object as received: prices stay as sent. */
export interface RemoteProduct extends RemoteRecord {}
/** The API's order (spec section 2.2): read-only, fields not shown by the spec. */
export interface RemoteOrder extends RemoteRecord {}

/** Keys under which an API may wrap a single resource (spec section 4.1 rule 3: shapes not shown). */
export const RESOURCE_WRAPPERS = ['data', 'product', 'order', 'item', 'result'] as const;

/**
 * The id as a string: a JSON integer (42) or a non-empty string ("42", kept as given but trimmed).
 * Null when absent or unusable (a fraction, a negative, an object, an empty string).
 */
export function normaliseId(value: unknown): string | null {
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) && value >= 0 ? String(value) : null;
  }
  if (typeof value === 'string') {
    const id = value.trim();
    return id !== '' && !/\s/.test(id) ? id : null;
  }
  return null;
}

/**
 * A record from a JSON value: the object itself when it has an id, else the object under one of
 * the wrapper keys (`{"data": {...}}`, `{"product": {...}}`). Null when neither holds an id.
 */
export function readRecord(value: unknown): RemoteRecord | null {
  if (!isObject(value)) return null;
  const id = normaliseId(value.id);
  if (id !== null) return { id, fields: value };
  for (const key of RESOURCE_WRAPPERS) {
    const inner = value[key];
    if (isObject(inner)) {
      const innerId = normaliseId(inner.id);
      if (innerId !== null) return { id: innerId, fields: inner };
    }
  }
  return null;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
