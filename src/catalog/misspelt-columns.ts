import { editDistance, oneTypoFrom } from './field-names.js';
import { type Lookup, lookupReads } from './presets/asked-columns.js';
import { normaliseColumn } from './presets/columns.js';

/** A header cell no lookup of the preset reads, one typo from a column it looks for that the file lacks. */
export interface MisspeltColumn {
  /** The cell as the header writes it: `Variant Inventory Qtty`. */
  column: string;
  /** The column it is near, spelt as the cell is (its case kept): `Variant Inventory Qty`. */
  near: string;
}

/**
 * The header's columns that a platform preset reads under no name, each one typo (oneTypoFrom, the
 * rule the generic preset's hints use) from a name of a lookup of `wanted` that finds no column of
 * the header: `Variant Inventory Qtty` beside no `Variant Inventory Qty`, `Stok` beside no `Stock`.
 * Such a column was never read, and nothing said so: the marketplace kept selling a quantity the
 * file had set to 0. `reads`: every lookup the preset makes (asked-columns.ts), which decide what is
 * read; `wanted`: those whose names a column may be near (all of them, or the signature's required
 * ones that are missing). A column whose near name the header has too is a column of its own
 * (`Body HTML` beside `Body (HTML)`), and so is one that differs from it by a number only
 * (`Option4 Value`, `Image 2`: another option, another image).
 */
export function misspeltColumns(
  header: readonly string[],
  reads: readonly Lookup[],
  wanted: readonly Lookup[] = reads,
): MisspeltColumn[] {
  const missing = wanted.filter((lookup) => !header.some((column) => lookupReads(lookup, column)));
  const names = [...new Set(missing.flat().filter((name): name is string => typeof name === 'string'))];
  const misspelt: MisspeltColumn[] = [];
  for (const column of header) {
    if (reads.some((lookup) => lookupReads(lookup, column))) continue;
    const name = normaliseColumn(column);
    const near = names.find(
      (wantedName) => oneTypoFrom(name, wantedName) && !numberedSibling(name, wantedName),
    );
    if (near !== undefined) misspelt.push({ column, near: spelledLike(column, near) });
  }
  return misspelt;
}

/** `"Variant Inventory Qtty" (near "Variant Inventory Qty")`, each misspelt column so, for a refusal. */
export function misspeltList(misspelt: readonly MisspeltColumn[]): string {
  return misspelt.map(({ column, near }) => `"${column}" (near "${near}")`).join(', ');
}

/** How to fix them: `rename it "Variant Inventory Qty"`, or each to the column it is near. */
export function renameHint(misspelt: readonly MisspeltColumn[]): string {
  const [only] = misspelt;
  return misspelt.length === 1 && only ? `rename it "${only.near}"` : 'rename each to the column it is near';
}

/**
 * The line refusing a source whose preset would leave `misspelt` unread: before anything is sent, as
 * a file that sets a quantity to 0 under a mistyped header would otherwise be synced without it.
 */
export function misspeltLine(preset: string, misspelt: readonly MisspeltColumn[]): string {
  const what =
    misspelt.length === 1
      ? 'a column not read, one typo from a column it reads that this file lacks'
      : 'columns not read, each one typo from a column it reads that this file lacks';
  return `preset ${preset}: ${what}: ${misspeltList(misspelt)}: ${renameHint(misspelt)}`;
}

/** The two differ by their numbers only (`option4 value`, `option3 value`; `price2`, `price`). */
function numberedSibling(name: string, wanted: string): boolean {
  const unnumbered = (text: string) => text.replace(/[\s_-]*\d+/g, '');
  return /\d/.test(name + wanted) && unnumbered(name) === unnumbered(wanted);
}

/**
 * `near` (a preset's lower-case name) spelt with the case of `column`, one typo from it: the letters
 * before and after the typo are the cell's own, and the typed ones take the case of the letters
 * beside them (`Variant Inventory Qtty` → `Variant Inventory Qty`, `Stok` → `Stock`, `Body (HTM)` →
 * `Body (HTML)`). A cell the preset reads in another form (eBay's `*Action(SiteID=US)`) gives the
 * name as the preset writes it.
 */
function spelledLike(column: string, near: string): string {
  const cell = column.trim();
  const lower = cell.toLowerCase();
  if (editDistance(lower, near) !== 1) return near;
  let start = 0;
  while (start < lower.length && start < near.length && lower[start] === near[start]) start++;
  let end = 0;
  while (
    end < lower.length - start &&
    end < near.length - start &&
    lower[lower.length - 1 - end] === near[near.length - 1 - end]
  )
    end++;
  const beside = [cell[start - 1] ?? '', cell[cell.length - end] ?? ''].filter(
    (c) => c.toLowerCase() !== c.toUpperCase(),
  );
  const upper = beside.length > 0 && beside.every((letter) => letter === letter.toUpperCase());
  const typed = near.slice(start, near.length - end);
  return cell.slice(0, start) + (upper ? typed.toUpperCase() : typed) + cell.slice(cell.length - end);
}
