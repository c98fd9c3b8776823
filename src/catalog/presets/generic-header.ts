import {
  type KeyRule,
  keyField,
  ownNameColumns,
  ownNameLines,
  readLine,
  unnamedLine,
} from './generic-keys.js';
import type { LocalizedHeader } from './types.js';

/** How the generic preset reads a header. */
export interface GenericHeader {
  /** The header with the columns read as product fields renamed; absent when none is. */
  localized?: LocalizedHeader;
  /** For the summary: the columns sent under their own name that a product field was surely meant by. */
  lines: string[];
  /** Why a row has no name, where a column near it is sent under its own name (unnamedLine). */
  unnamed?: string;
}

/**
 * The generic preset's header (a CSV's: every row has its columns), each column read as the product
 * field it surely names (generic-keys.ts keyField), else sent under its own name (`Color`). Sent as
 * written, `Price` or `stock` was a text field of that name while the field meant was never written:
 * a new product was refused for having no price, an existing one "updated" kept its price or stock.
 * A header can give a field twice, which one column alone cannot: the field's own name wins, then
 * the first column naming it in another case (`SKU`, `Price`: a spreadsheet's usual header), then
 * another platform's word for it (`stock`, `Title`) where no other column gives it by another such
 * word (then neither word is read). `--match-by` changes none of this (catalog/match-field.ts). A name one edit from a field (`quantiy`; `height` is one from
 * `weight`) is never read as it, but said in one line while no column gives the field.
 */
export function genericHeader(columns: readonly string[], rule: KeyRule = {}): GenericHeader {
  const names = [...columns];
  const reads = columns.map((column) => keyField(column, rule));
  // Each field some column gives: named exactly, then in another case, then by one word alone.
  const given = new Set(columns);
  reads.forEach((read, i) => {
    if (!read || read.word || read.mapped || given.has(read.field)) return;
    given.add(read.field);
    names[i] = read.field;
  });
  const words = new Map<string, number[]>();
  reads.forEach((read, i) => {
    if (read?.word && !read.mapped) words.set(read.field, [...(words.get(read.field) ?? []), i]);
  });
  for (const [field, [i, ...others]] of words)
    if (i !== undefined && others.length === 0 && !given.has(field)) names[i] = field;
  const lines = ownNameLines(columns, names, rule);
  const unnamed = unnamedLine(ownNameColumns(columns, names, rule).near, 'column');
  const says = readLine(columns, names);
  return {
    ...(says === undefined ? {} : { localized: { columns: names, says } }),
    lines,
    ...(unnamed === undefined ? {} : { unnamed }),
  };
}
