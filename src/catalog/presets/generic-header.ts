import { meantField, TOOL_FIELDS } from '../field-names.js';
import type { LocalizedHeader } from './types.js';

/** The names the generic preset reads whatever their case: the product fields, and the `id` column. */
const FOLDED = new Set([...TOOL_FIELDS, 'id']);

/**
 * Other platforms' words (field-names.ts) the generic preset reads as the field they stand for, in
 * any case: each one's values in a spreadsheet are what that field's own rules read (a quantity a
 * whole number, a barcode text, tags a list, enabled a yes or no), and a value they refuse makes the
 * row invalid, named by the field (`invalid quantity "lots"`). Left under their own names, as words
 * whose values a generic file often holds otherwise: `sale` (a flag or a percentage: `1` would be a
 * sale price of 1), `published` (a date as often as a yes; WooCommerce's -1), `image`/`image_url`
 * (one URL, often the main one only: `images` replaces the list, and a comma inside a URL splits
 * it), `link` (any link: an affiliate's, a supplier's), `product_type` (`simple`, `configurable`),
 * `categories` (several: `category` takes one), `vendor` (an ERP's supplier), `body` (a garment).
 */
const READ_OTHER_NAMES: ReadonlySet<string> = new Set([
  'stock',
  'qty',
  'inventory',
  'inventory_quantity',
  'stock_quantity',
  'quantity_available',
  'title',
  'body_html',
  'special_price',
  'manufacturer',
  'gtin',
  'ean',
  'upc',
  'isbn',
  'tag',
  'enabled',
]);

/** How the generic preset reads a header. */
export interface GenericHeader {
  /** The header with the columns read as product fields renamed; absent when none is. */
  localized?: LocalizedHeader;
  /** For the summary: the columns sent under their own name that a product field was surely meant by. */
  lines: string[];
}

/**
 * The generic preset's header, each column read as the product field it surely names, else sent
 * under its own name (`Color`). Sent as written, `Price` or `stock` was a text field of that name
 * while the field meant was never written: a new product was refused for having no price, an
 * existing one "updated" kept its price or stock. Read so: a product field in another case (`SKU`,
 * `Price`: a spreadsheet's usual header), then another platform's word for one (`stock`, `Title`:
 * READ_OTHER_NAMES), unless another column names the field (exactly, in another case, or by another
 * such word: then neither word is read), or `run.mapped` holds it (a mapping file's field, words
 * only). The column the run matches by (`--match-by ean`) keeps its name: the products are found by
 * it; one named so in another case (`EAN`) is read as that field, as a product field's is, not as
 * the field its word stands for (barcode: the run then had no `ean` to match by). A name one edit from a field (`quantiy`; `height` is one from `weight`) is never read as it,
 * but said in one line while no column gives the field.
 */
export function genericHeader(
  columns: readonly string[],
  run: { matchBy?: string | undefined; mapped?: readonly string[] } = {},
): GenericHeader {
  const names = [...columns];
  const read = new Map<number, string>();
  const folded = run.matchBy === undefined ? FOLDED : new Set([...FOLDED, run.matchBy]);
  // Each field some column is read as, with that column: named exactly, then in another case.
  const from = new Map<string, string>();
  for (const column of columns) if (folded.has(column)) from.set(column, column);
  columns.forEach((column, i) => {
    const field = column.trim().toLowerCase();
    if (field === column || !folded.has(field) || from.has(field) || column === run.matchBy) return;
    from.set(field, column);
    names[i] = field;
    read.set(i, `${column} as ${field}`);
  });
  // Then a word for a field no column names, where no other column gives it by another word.
  const mapped = new Set(run.mapped);
  const words = new Map<string, number[]>();
  columns.forEach((column, i) => {
    if (names[i] !== column || column === run.matchBy) return;
    const word = column.trim().toLowerCase();
    const meant = meantField(word);
    if (!meant?.otherName || !READ_OTHER_NAMES.has(word)) return;
    words.set(meant.field, [...(words.get(meant.field) ?? []), i]);
  });
  for (const [field, [i, ...others]] of words) {
    if (i === undefined || others.length > 0 || from.has(field) || mapped.has(field)) continue;
    const column = columns[i] as string;
    from.set(field, column);
    names[i] = field;
    read.set(i, `${column} as ${field}`);
  }
  const lines = ownNameLines(columns, names, from, mapped, run.matchBy);
  if (read.size === 0) return { lines };
  const said = [...read].sort(([a], [b]) => a - b).map(([, text]) => text);
  return {
    localized: { columns: names, says: `columns read as product fields: ${said.join(', ')}` },
    lines,
  };
}

/**
 * The summary's lines for the columns sent under their own name that a product field was surely
 * meant by: a word READ_OTHER_NAMES holds whose field another column gives (which one), and any
 * such name whose field no column gives (`quantiy (quantity?)`), with how to read it as the field.
 * One whose field another column gives (`Price` beside `price`, `prices`) is not said.
 */
function ownNameLines(
  columns: readonly string[],
  names: readonly string[],
  from: ReadonlyMap<string, string>,
  mapped: ReadonlySet<string>,
  matchBy: string | undefined,
): string[] {
  const another: string[] = [];
  const near: [column: string, field: string][] = [];
  columns.forEach((column, i) => {
    if (names[i] !== column || column === matchBy) return;
    const meant = meantField(column.trim());
    if (!meant || mapped.has(meant.field)) return;
    const source = from.get(meant.field);
    if (source === undefined) near.push([column, meant.field]);
    else if (READ_OTHER_NAMES.has(column.trim().toLowerCase()))
      another.push(`${column} (${meant.field} from ${source})`);
  });
  const lines: string[] = [];
  if (another.length > 0)
    lines.push(
      `columns sent under their own name, another column read as their field: ${another.join(', ')}`,
    );
  const [first] = near;
  if (first) {
    const listed = near.map(([column, field]) => `${column} (${field}?)`).join(', ');
    lines.push(
      `columns sent under their own name, near a product field: ${listed}: rename it, or read it with a mapping file (${first[1]}: ${first[0]}; docs/sources.md)`,
    );
  }
  return lines;
}
