import { kindOf } from '../catalog/index.js';
import type { CsvShape } from './export-file.js';

/**
 * `products export` as CSV, written to import back with the generic preset and no write: each cell
 * is read back by generic as the value the API shows (compared as the diff compares, compact-value.ts).
 */

/** `id` first (generic addresses a product by it), then every other field in code-point order: stable whatever the API's order. */
export function productColumns(seen: readonly string[]): string[] {
  const others = seen.filter((column) => column !== 'id').sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return seen.includes('id') ? ['id', ...others] : others;
}

/**
 * One cell per field; null is left out (a blank cell: "leave as it is"). A list field (`tags`,
 * `images`) is its items joined with `, `, the way generic splits a list cell (an item given as
 * `{name: …}`, as some APIs show tags, by its name); any other array or object is its JSON text,
 * which generic sends as a string equal to what the diff keeps of the API's value.
 */
export function productCell(field: string, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && kindOf(field) === 'list') return value.map(listItem).join(', ');
  return JSON.stringify(value);
}

function listItem(item: unknown): string {
  if (typeof item === 'string') return item;
  if (typeof item === 'number' || typeof item === 'boolean') return String(item);
  if (typeof item === 'object' && item !== null && typeof (item as { name?: unknown }).name === 'string')
    return (item as { name: string }).name;
  return JSON.stringify(item);
}

export function productCells(fields: Record<string, unknown>): Record<string, string> {
  const cells: Record<string, string> = {};
  for (const [field, value] of Object.entries(fields)) {
    const cell = productCell(field, value);
    if (cell !== null) cells[field] = cell;
  }
  return cells;
}

export const PRODUCTS_CSV: CsvShape = { cells: productCells, columns: productColumns };
