import type { IndexedProduct } from './diff.js';

/**
 * A product's entry in the run's index as stored: its compact values alone. The product's id is the
 * hash field the entry is stored under, so it is not kept a second time (issue 12).
 */
export function encodeEntry(product: IndexedProduct): string {
  return JSON.stringify(product.values);
}

/** The indexed product stored under `id`. */
export function decodeEntry(id: string, stored: string): IndexedProduct {
  const parsed = JSON.parse(stored) as Record<string, unknown>;
  return withId(parsed) ?? { id, values: parsed as IndexedProduct['values'] };
}

/**
 * An entry written before entries dropped their id (a run that spans an upgrade of its workers):
 * `{"id":…,"values":{…}}`. Values are never objects, so a values object never looks like one.
 */
function withId(parsed: Record<string, unknown>): IndexedProduct | null {
  const { values } = parsed;
  if (typeof parsed.id !== 'string' || typeof values !== 'object' || values === null) return null;
  return parsed as unknown as IndexedProduct;
}
