import { join } from 'node:path';
import { projectRoot } from '../project-root.js';
import { CatalogConfigError } from './errors.js';
import { editDistance, meantField, nearestField, type ReadAs } from './field-names.js';
import { shownName } from './invisible-text.js';
import type { MappingSpec } from './mapping-file.js';
import { mayShowField, shownFields } from './shown-fields.js';

/** The field a run matches by, and what the summary and the create check need to know of it. */
export interface MatchField {
  field: string;
  /** For the summary: the name asked for was a column read as a field of another name. */
  line?: string;
  /**
   * The match column's own names (as written, and in lower case) when the source reads it as the
   * match field under another name (`EAN` as barcode): products an older run made may carry the
   * key under one of them (guards/lookalike-creates.ts). None when matching by `sku`.
   */
  columnNames: string[];
}

/** How the source's columns are read (preset-choice.ts): its header, and the columns renamed. */
export interface ReadColumns {
  columns: readonly string[];
  /** Columns read as a product field of another name (`stock` → quantity, `SKU` → sku). */
  readAs: ReadAs;
  /** The generic preset: each column not in `readAs` is the field of its own name. */
  generic: boolean;
  /**
   * A platform preset's: its name, and the columns it reads as a product field (`title` → name in a
   * Google Merchant feed: preset-reads.ts), found when first asked for (a column named, not a field).
   */
  preset?: { name: string; reads: () => ReadonlyMap<string, string> };
}

/**
 * The field that identifies a product: `--match-by`, else the mapping file's `matchBy`, else `sku`,
 * resolved as the other options naming fields are (field-names.ts readAsLine), never by reading a
 * column otherwise than a run without it does: the products that run made carry the field it sends.
 * `--match-by ean` had the generic preset read an `EAN` column as `ean` where every other run reads
 * it as barcode, found none of the products made by it, and created the whole catalog again. So a
 * name the source gives as a field is that field; else a column of that name (any case) is the field
 * it is read as (`SKU` → sku, `EAN` → barcode, a Google Merchant `title` → name, a Shopify `Variant
 * Barcode` → barcode: said in one line when more than its case differs); else a field in another case
 * (`SKU` where a preset gives `sku`). Any other name is refused in one line saying where it came from
 * (`givenAs`: `--match-by` as the user wrote it, a job file's `matchBy: ean in nightly.yml`): a column
 * the preset reads as no field, as such; with the column one edit from it that the preset reads as a
 * field (`titel`: title, read as name), else the field one edit from it (`skuu`: sku), else, for a
 * header no preset knows (`unknownHeader`), what would read it.
 */
export function matchField(
  given: string | undefined,
  mapping: MappingSpec | undefined,
  available: readonly string[],
  read: ReadColumns,
  unknownHeader: boolean,
  givenAs?: string,
): MatchField {
  const asked = given ?? mapping?.matchBy ?? 'sku';
  const origin = given
    ? (givenAs ?? `--match-by ${asked}`)
    : mapping?.matchBy
      ? `matchBy ${asked} (mapping file ${mapping.origin})`
      : `--match-by ${asked} (the default)`;
  const found = resolved(asked, available, read);
  if (found.field !== undefined) {
    const match: MatchField = { field: found.field, columnNames: columnNames(found.field, read) };
    if (found.column !== undefined && found.field.toLowerCase() !== asked.toLowerCase())
      match.line = `${origin}: this source's ${found.column} column is read as ${found.field}: matched by ${found.field}`;
    return match;
  }
  // A typo of a column the preset reads (`titel`) or of a field the source gives (`skuu`) is that
  // one, not a header to write a mapping for. One edit at most: matched by a field further off, a
  // run would create the catalog again.
  const column = read.preset ? nearestColumn(asked, read.preset.reads(), available) : undefined;
  const nearest = column ? undefined : nearestField(asked, available.filter(mayShowField), 1);
  const misspelt = nearest && misspeltKey(asked, nearest.field, read);
  const near = column
    ? `; the nearest column is ${shownName(column.column)}, read as ${column.field}`
    : misspelt
      ? `; the column ${shownName(misspelt)} looks like ${asked} misspelt: rename it "${asked}" (or give --match-by the field to match by)`
      : nearest
        ? `; the nearest field is ${shownName(nearest.field)}`
        : '';
  const fields = `(fields: ${shownFields(available)})`;
  if (found.column !== undefined && read.preset)
    throw new CatalogConfigError(
      `${origin}: the ${read.preset.name} preset does not read this source's ${found.column} column as one product field in every row, so rows cannot be matched by it${near} ${fields}`,
    );
  // Named absolutely: an installed package has the folder too, but no checkout to be relative to.
  const hint =
    unknownHeader && !nearest
      ? `; no preset knows these columns: give --mapping FILE (see ${join(projectRoot(), 'fixtures', 'mappings')}/)`
      : '';
  throw new CatalogConfigError(
    `${origin}: no column of this source gives the field "${asked}"${near} ${fields}${hint}`,
  );
}

/**
 * The column sent under its own name that is `asked`, a product field, misspelt (`skuu` for the
 * default `sku`): the fix is the column's name, not `--match-by`. Said as "the nearest field is
 * skuu", the line read as if the tool suggested the typo. Not where `asked` is the misspelt one
 * (`--match-by skuu` on a `sku` column: meantField gives none for a product field).
 */
function misspeltKey(asked: string, field: string, read: ReadColumns): string | undefined {
  if (!read.columns.includes(field) || read.readAs.has(field)) return undefined;
  return meantField(field)?.field === asked ? field : undefined;
}

/** The field `asked` names, and the column it names where it names one (read as no field: none). */
function resolved(
  asked: string,
  available: readonly string[],
  read: ReadColumns,
): { field?: string; column?: string } {
  if (available.includes(asked)) return { field: asked };
  const lower = asked.toLowerCase();
  const column = read.columns.includes(asked) ? asked : only(read.columns, lower);
  if (column !== undefined) {
    const field = read.readAs.get(column) ?? (read.generic ? column : read.preset?.reads().get(column));
    if (field !== undefined && available.includes(field)) return { field, column };
  }
  const field = only(available, lower);
  return field !== undefined ? { field } : column !== undefined ? { column } : {};
}

/** The column one edit from `asked` (case aside) that the preset reads as a field the source gives. */
function nearestColumn(
  asked: string,
  reads: ReadonlyMap<string, string>,
  available: readonly string[],
): { column: string; field: string } | undefined {
  for (const [column, field] of reads.entries())
    if (available.includes(field) && editDistance(asked.toLowerCase(), column.toLowerCase()) <= 1)
      return { column, field };
  return undefined;
}

/** The one name of `names` that is `lower` in lower case; none when none or several are. */
function only(names: readonly string[], lower: string): string | undefined {
  const same = names.filter((name) => name.toLowerCase() === lower);
  return same.length === 1 ? same[0] : undefined;
}

/** The names of the columns read as `field` under another name, as written and in lower case. */
function columnNames(field: string, read: ReadColumns): string[] {
  if (field === 'sku') return [];
  const names = new Set<string>();
  for (const column of read.columns)
    if (read.readAs.get(column) === field)
      for (const name of [column, column.toLowerCase()]) if (name !== field) names.add(name);
  return [...names];
}
