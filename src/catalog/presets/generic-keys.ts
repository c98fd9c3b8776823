import { meantField, TOOL_FIELDS } from '../field-names.js';
import { nearField } from '../near-field.js';

/** The names the generic preset reads whatever their case: the product fields, and the `id` column. */
const FOLDED: ReadonlySet<string> = new Set([...TOOL_FIELDS, 'id']);

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

/** What of the run decides how the generic preset reads a name. */
export interface KeyRule {
  /**
   * The fields a mapping file with `preset: generic` lists, each with the columns it reads them
   * from (none: a constant), null where it removes the field (`price: null`).
   */
  mapped?: ReadonlyMap<string, readonly string[] | null>;
  /** Every column such a mapping file reads. */
  reads?: ReadonlySet<string>;
}

/** The field a name other than its own would be read as, by the name alone. */
export interface KeyField {
  field: string;
  /** Another platform's word (`stock`), not the field's own name in another case (`Price`). */
  word: boolean;
  /** The mapping file gives the field from other columns: the name is sent as it is, and said so. */
  mapped?: true;
}

/**
 * The field `column` names beside its own name, by that name alone: the same for every record of a
 * JSON source, whichever brings it first, and before any does (an option naming it is checked by it).
 * Undefined for a product field's own name and any other name (`Color`); `--match-by` changes none
 * of it (match-field.ts).
 * A product field in another case (`SKU`, `Price`), unless the mapping file gives that field from
 * other columns (`name: Titel`: `Name` is then not what is sent). Then another platform's word
 * (READ_OTHER_NAMES), unless the mapping file gives its field, or reads the column as a field of its
 * own (`stock: {column: stock, custom: true}`: its `In stock` is no quantity).
 */
export function keyField(column: string, rule: KeyRule): KeyField | undefined {
  if (FOLDED.has(column)) return undefined;
  const lower = column.trim().toLowerCase();
  if (FOLDED.has(lower)) {
    const from = rule.mapped?.get(lower);
    if (!from || from.includes(column)) return { field: lower, word: false };
    // The mapping file's own column is its business: not said as if the preset had left it.
    return rule.reads?.has(column) ? undefined : { field: lower, word: false, mapped: true };
  }
  if (!READ_OTHER_NAMES.has(lower)) return undefined;
  const meant = meantField(lower);
  if (!meant?.otherName || rule.reads?.has(column)) return undefined;
  return rule.mapped?.has(meant.field)
    ? { field: meant.field, word: true, mapped: true }
    : { field: meant.field, word: true };
}

/** The name `column` is read under, by the name alone: its field, else its own. */
export function readName(column: string, rule: KeyRule): string {
  const read = keyField(column, rule);
  return read && !read.mapped ? read.field : column;
}

/** For the summary: the columns read under another name (`columns read as product fields: …`). */
export function readLine(columns: readonly string[], names: readonly string[]): string | undefined {
  const said = columns.flatMap((column, i) => (names[i] === column ? [] : [`${column} as ${names[i]}`]));
  return said.length > 0 ? `columns read as product fields: ${said.join(', ')}` : undefined;
}

/** A column sent under its own name that a product field was likely meant by, no column giving it. */
export interface NearColumn {
  column: string;
  field: string;
  /** Another platform's word it misspells or prefixes (near-field.ts). */
  word?: string;
}

/** How the summary and a row's reason show it: `quantiy (quantity?)`, `Titel (title → name?)`. */
function shown(near: NearColumn): string {
  return `${near.column} (${near.word === undefined ? '' : `${near.word} → `}${near.field}?)`;
}

/**
 * The summary's lines for the columns sent under their own name that a product field was surely
 * meant by (ownNameColumns), with how to read a near one as the field.
 */
export function ownNameLines(columns: readonly string[], names: readonly string[], rule: KeyRule): string[] {
  const { another, mapped, near } = ownNameColumns(columns, names, rule);
  const lines: string[] = [];
  if (another.length > 0)
    lines.push(
      `columns sent under their own name, another column read as their field: ${another.join(', ')}`,
    );
  if (mapped.length > 0)
    lines.push(
      `columns sent under their own name, the mapping file giving their field: ${mapped.join(', ')}`,
    );
  const [first] = near;
  if (first)
    lines.push(
      `columns sent under their own name, near a product field: ${near.map(shown).join(', ')}: rename it, or read it with a mapping file (${first.field}: ${first.column}; docs/sources.md)`,
    );
  return lines;
}

/**
 * Why a row has no name, where columns sent under their own name are near it (`no name column; near
 * it: Titel (title → name?)`): said after `missing name for a new product`. Undefined where none is.
 */
export function unnamedLine(near: readonly NearColumn[], what: 'column' | 'key'): string | undefined {
  const named = near.filter((column) => column.field === 'name');
  return named.length === 0 ? undefined : `no name ${what}; near it: ${named.map(shown).join(', ')}`;
}

/**
 * The columns sent under their own name that a product field was surely meant by: a word
 * READ_OTHER_NAMES holds whose field another column gives (`stock (quantity from quantity)`), one
 * whose field the mapping file gives from others (`Name (name)` beside `name: Titel`), and any
 * column near a field no column gives (near-field.ts: `quantiy`, `Titel`, `Product Name`). One whose
 * field another column gives (`Price` beside `price`, `prices`) is not said. `names`: what each
 * column is read as.
 */
export function ownNameColumns(
  columns: readonly string[],
  names: readonly string[],
  rule: KeyRule,
): { another: string[]; mapped: string[]; near: NearColumn[] } {
  // Each field some column is read as (or named exactly), with that column.
  const from = new Map<string, string>();
  columns.forEach((column, i) => {
    const name = names[i] as string;
    if (FOLDED.has(name) && !from.has(name)) from.set(name, column);
  });
  const said = { another: [] as string[], mapped: [] as string[], near: [] as NearColumn[] };
  columns.forEach((column, i) => {
    // The mapping file's own columns are its business (`quantity: quantiy`, `stock: {custom: true}`).
    if (names[i] !== column || rule.reads?.has(column)) return;
    const read = keyField(column, rule);
    if (read?.mapped) {
      said.mapped.push(`${column} (${read.field})`);
      return;
    }
    const meant = nearField(column);
    if (!meant || rule.mapped?.has(meant.field)) return;
    const source = from.get(meant.field);
    if (source === undefined) said.near.push({ column, ...meant });
    else if (READ_OTHER_NAMES.has(column.trim().toLowerCase()))
      said.another.push(`${column} (${meant.field} from ${source})`);
  });
  return said;
}

/**
 * The generic preset's names for a source whose records name their own keys (JSON, NDJSON, XML): each
 * key read by keyField alone, the same in every record however it orders or omits keys, so that a
 * key first met in record 900 is read as it would have been in record 1, tonight and every night.
 * Worked out once per distinct key, not per record; the summary says the keys met so far.
 */
export class OpenKeys {
  private readonly names = new Map<string, string>();
  /** unnamed()'s line, and the number of keys met when it was worked out. */
  private unnamedLineNow: string | undefined;
  private unnamedAt = -1;

  constructor(private readonly rule: KeyRule) {}

  /** The name `key` is read under (the preset's hot path: a lookup once the key was met). */
  readonly nameOf = (key: string): string => {
    const known = this.names.get(key);
    if (known !== undefined) return known;
    const name = readName(key, this.rule);
    this.names.set(key, name);
    return name;
  };

  /** The summary's lines for the keys met so far (listed as first met; which are said, whatever the order). */
  lines(): string[] {
    const keys = [...this.names.keys()];
    const names = [...this.names.values()];
    const read = readLine(keys, names);
    return [...(read ? [read] : []), ...ownNameLines(keys, names, this.rule)];
  }

  /**
   * Why a record has no name, by the keys met so far (unnamedLine): worked out again only once a
   * new key was met, so a feed with no name key pays a lookup per record, not a pass over its keys.
   */
  unnamed(): string | undefined {
    if (this.unnamedAt !== this.names.size) {
      const keys = [...this.names.keys()];
      const { near } = ownNameColumns(keys, [...this.names.values()], this.rule);
      this.unnamedLineNow = unnamedLine(near, 'key');
      this.unnamedAt = this.names.size;
    }
    return this.unnamedLineNow;
  }
}
