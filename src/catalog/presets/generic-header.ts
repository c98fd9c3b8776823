import { TOOL_FIELDS } from '../field-names.js';
import type { LocalizedHeader } from './types.js';

/** The names the generic preset reads whatever their case: the product fields, and the `id` column. */
const FOLDED = new Set([...TOOL_FIELDS, 'id']);

/**
 * The generic preset's header with each column named as a product field in another case (`SKU`,
 * `Name`, `Price`: a spreadsheet's usual header) read as that field; undefined when none is.
 * Sent as it was written, `Price` was a text field of that name: a new product was refused for
 * having no price, an existing one was "updated" and kept its price. A column whose field another
 * column already names exactly stays as it is (`Price` beside `price`), and so does any name that
 * is not a product field (`Color`).
 */
export function foldedHeader(columns: readonly string[]): LocalizedHeader | undefined {
  const taken = new Set(columns);
  const read: string[] = [];
  const names = columns.map((column) => {
    const field = column.trim().toLowerCase();
    if (field === column || !FOLDED.has(field) || taken.has(field)) return column;
    taken.add(field);
    read.push(`${column} as ${field}`);
    return field;
  });
  return read.length === 0
    ? undefined
    : { columns: names, says: `columns read as product fields: ${read.join(', ')}` };
}
