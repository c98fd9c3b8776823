import { comparableKey } from '../catalog/key-forms.js';
import { type CompactValue, isDigest } from './compact-value.js';

/**
 * Rows of a source that must not be written to the product they resolved to (remote-index.ts,
 * `lookup`): each would give a product a match key another product has, or be a second row written
 * to one product. Refused before any request, as an invalid row whose error names both sides.
 */

/** A chunk's row, resolved to its product, as the refusals see it. */
export interface ResolvedRow {
  row: number;
  key: string;
  /** The row's `id` column (generic preset): the product it names. */
  idColumn?: string;
  /** The product the row resolved to; null: none (a create). */
  id: string | null;
  /** Found in the run's index under the row's own key (the list read's, or one this run created). */
  byIndexedKey: boolean;
  createdByThisRun: boolean;
  /** The product's match key as its entry in the run's index shows it now (keyInEntry). */
  shownKey: string | null;
}

/** What the run knows around a row's `id` column (id-row-facts.ts). */
export interface IdRowFacts {
  /** The named product's match key: as listed or written by this run, else as recorded; null: not known. */
  current: string | null;
  /** Another product that has the row's key (the list read's, or the id map's record), or null. */
  other: string | null;
  /** The named product is in the run's index (listed, or written by this run), whatever its key. */
  indexed: boolean;
  /** The source holds a row whose key is `current`. */
  currentInSource: boolean;
  /** `on the marketplace`, or where an `--incremental` run's knowledge comes from. */
  where: string;
}

/** A product's match key as an entry of the run's index keeps it (null when it does not show one). */
export function keyInEntry(values: Record<string, CompactValue> | undefined, matchBy: string): string | null {
  const value = values?.[matchBy];
  // Trimmed as the list read reads a key (remote-index.ts); a long one is kept as a digest only.
  if (typeof value === 'string') return value.trim() === '' || isDigest(value) ? null : value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

function sameKey(a: string, b: string): boolean {
  return comparableKey(a) === comparableKey(b);
}

/**
 * A row whose `id` column names a product whose key is not the row's: a SKU rename through the id
 * column, unless another product has that key (an ERP's own ids read as the marketplace's would
 * give it a second product's SKU), or the source also holds a row for the product's present key
 * (two rows would be written to it).
 */
export function idRowRefusal(row: ResolvedRow, facts: IdRowFacts, matchBy: string): string | null {
  const id = row.idColumn;
  if (id === undefined) return null;
  const { current, other } = facts;
  if (current !== null && sameKey(current, row.key)) return null;
  if (other !== null && other !== id) {
    return `id ${id} ${namedProduct(facts, matchBy)}, and ${matchBy} ${row.key} is product ${other}: the id column may not be the marketplace's ids`;
  }
  if (current !== null && facts.currentInSource) {
    return `id ${id} ${namedProduct(facts, matchBy)}, and the source has a row with ${matchBy} ${current} too: two rows may not write one product`;
  }
  return null;
}

/** What the id column names, for a refusal: the product and its key, as far as they are known. */
function namedProduct({ current, indexed, where }: IdRowFacts, matchBy: string): string {
  if (current !== null) return `is product "${current}" ${where}`;
  return indexed ? `is a product whose ${matchBy} is not known` : `is no product ${where}`;
}

/**
 * A row found under its own key whose product this run gave another key since (another row renamed
 * it through its id column, or repaired its drift): the second row written to that product.
 */
export function rewrittenRefusal(row: ResolvedRow, matchBy: string): string | null {
  if (row.idColumn !== undefined || !row.byIndexedKey || row.createdByThisRun || row.id === null) return null;
  const shown = row.shownKey;
  if (shown === null || sameKey(shown, row.key)) return null;
  return `product ${row.id} has ${matchBy} ${shown} now, written by another row of this run: two rows may not write one product`;
}

/**
 * Rows of one chunk resolved to one product: the first in the source keeps it, each later one is
 * refused, naming it (as the duplicate-key check names the first row with a key).
 */
export function sharedProductRefusals(rows: readonly ResolvedRow[]): Map<number, string> {
  const first = new Map<string, number>();
  const refused = new Map<number, string>();
  for (const row of [...rows].sort((a, b) => a.row - b.row)) {
    if (row.id === null) continue;
    const before = first.get(row.id);
    if (before === undefined) first.set(row.id, row.row);
    else refused.set(row.row, `product ${row.id} is row ${before}'s too: two rows may not write one product`);
  }
  return refused;
}
