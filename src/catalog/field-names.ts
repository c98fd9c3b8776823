import { PRODUCT_FIELDS } from './fields.js';
import { shownName } from './invisible-text.js';

/**
 * The product fields an option names (`--missing`, `--first`, `--create-only-fields`,
 * `--keep-remote-edits`, `--fields`) are checked where the user types them: a name the tool does
 * not know would otherwise be sent as a new text field the marketplace keeps and ignores (issue 29:
 * `missing: {stock: 0}` left every product on sale).
 */
export interface NamedField {
  /** The option as the user wrote it: `--missing`, or a job file's key `missing in nightly.yml`. */
  option: string;
  name: string;
}

/** The options that name product fields, by their attribute names. */
export type FieldOption = 'missing' | 'first' | 'createOnlyFields' | 'keepRemoteEdits' | 'fields';

/** An option's flag: `createOnlyFields` → `--create-only-fields`. */
function flagOf(option: FieldOption): string {
  return `--${option.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}

/**
 * Names other platforms and habits give a product field (lower case): a user who types one of them
 * is told the field's name here rather than the one nearest in spelling.
 */
export const OTHER_NAMES: Readonly<Record<string, string>> = {
  stock: 'quantity',
  qty: 'quantity',
  inventory: 'quantity',
  inventory_quantity: 'quantity',
  stock_quantity: 'quantity',
  quantity_available: 'quantity',
  title: 'name',
  body: 'description',
  body_html: 'description',
  special_price: 'sale_price',
  sale: 'sale_price',
  vendor: 'brand',
  manufacturer: 'brand',
  gtin: 'barcode',
  ean: 'barcode',
  upc: 'barcode',
  isbn: 'barcode',
  image: 'images',
  image_url: 'images',
  link: 'url',
  product_type: 'category',
  categories: 'category',
  tag: 'tags',
  enabled: 'active',
  published: 'active',
};

/** Every product field the presets produce, in the table's order. */
export const TOOL_FIELDS: readonly string[] = Object.keys(PRODUCT_FIELDS);

/**
 * Ordinary words a product is described by, each an attribute of its own (lower case): however near
 * a product field in spelling (`height`, one letter from `weight`), a column or mapping key so named
 * is never hinted at nor refused as a misspelt field. The hint `height (weight?)`, followed, sent the
 * heights as weights; a mapping file's `height: Höhe` was refused every night. Kept short, and listed
 * in docs/sources.md: a word is here because it is such an attribute, not because it is near a field.
 */
export const ATTRIBUTE_WORDS: ReadonlySet<string> = new Set([
  'height',
  'width',
  'depth',
  'length',
  'size',
  'color',
  'colour',
  'material',
  'pattern',
  'style',
]);

/**
 * A name that is its own however near a product field it is spelt: an attribute word, or a field's
 * name or another platform's word with a number after it (`price2`, `Image 2`, `ean13`: a second
 * price, an image's place, a barcode's kind), which one edit from the field is no misspelling of it.
 */
export function ownWord(name: string): boolean {
  const lower = name.trim().toLowerCase();
  if (ATTRIBUTE_WORDS.has(lower)) return true;
  const base = /^(.+?)[\s_-]?\d+$/.exec(lower)?.[1];
  return base !== undefined && (TOOL_FIELDS.includes(base) || Object.hasOwn(OTHER_NAMES, base));
}

/**
 * The names of `flags` that name product fields, each with its option (`all` is no field), named by
 * `optionName` where the user wrote it (cli/option-origins.ts: a job file's `missing in
 * nightly.yml`, as a cron line that has no `--missing` would be refused by a flag it lacks); by its
 * flag without it.
 */
export function namedFields(
  flags: {
    missing?: Readonly<Record<string, unknown>> | null;
    first?: readonly string[] | null;
    createOnlyFields?: readonly string[] | null;
    keepRemoteEdits?: readonly string[] | null;
    fields?: readonly string[] | null;
  },
  optionName: (option: FieldOption) => string = flagOf,
): NamedField[] {
  const named = (option: FieldOption, names: readonly string[] | null | undefined) =>
    (names ?? []).map((name) => ({ option: optionName(option), name }));
  return [
    ...named('missing', flags.missing ? Object.keys(flags.missing) : null),
    ...named('first', flags.first),
    ...named('createOnlyFields', flags.createOnlyFields),
    ...named(
      'keepRemoteEdits',
      flags.keepRemoteEdits?.filter((name) => name !== 'all'),
    ),
    ...named('fields', flags.fields),
  ];
}

/** The named fields that none of `known` is: only the seller's listed products can vouch for them. */
export function unknownNames(named: readonly NamedField[], known: Iterable<string>): NamedField[] {
  const knownSet = new Set(known);
  return named.filter((field) => !knownSet.has(field.name));
}

/**
 * The names a source's columns are read under where not their own (the generic preset's `stock` as
 * quantity): a CSV header's columns, or for a JSON source every name (its records bring their keys).
 */
export type ReadAs = Pick<ReadonlyMap<string, string>, 'get' | 'has'>;

/**
 * The line refusing the first named field that is a column `readAs` reads as another field (the
 * generic preset's `stock` read as quantity), null when none is: the products an older run sent it
 * to as a text field still show it, so the name would pass the listed-fields check, and `--missing
 * stock=0` write `stock: "0"` while the summary says `stock as quantity`. A name the source gives as
 * a field of its own too (a mapping file's `stock: {column: stock, custom: true}`) is let be.
 */
export function readAsLine(
  named: readonly NamedField[],
  readAs: ReadAs,
  given: readonly string[],
): string | null {
  const refused = named.find((field) => readAs.has(field.name) && !given.includes(field.name));
  if (refused === undefined) return null;
  const field = readAs.get(refused.name);
  return `${refused.option}: ${refused.name}: this source's ${refused.name} column is read as ${field}: name ${field}`;
}

/**
 * The field a user meant by `name`: the product field it is another platform's word for, else the
 * known name nearest in spelling, another platform's words included (fewest edits; the first of
 * equals in `known`'s order), within `maxEdits` when given. None for an own word (`height`,
 * `price2`): it means no field but itself.
 */
export function nearestField(
  name: string,
  known: readonly string[],
  maxEdits = Number.POSITIVE_INFINITY,
): { field: string; otherName: boolean } | null {
  const meant = OTHER_NAMES[name.toLowerCase()];
  if (meant !== undefined && known.includes(meant)) return { field: meant, otherName: true };
  if (ownWord(name)) return null;
  // Another platform's word misspelt counts as that word (`stok` is nearer `stock` than `sku`).
  const candidates: [spelling: string, field: string][] = [
    ...known.map((field): [string, string] => [field, field]),
    ...Object.entries(OTHER_NAMES).filter(([, field]) => known.includes(field)),
  ];
  const best = nearestSpelling(name, candidates);
  return best && best.distance <= maxEdits ? { field: best.field, otherName: false } : null;
}

/**
 * The product field a name that is not one was surely meant to be: one another platform calls so
 * (`stock`), or one a single edit or a case away (`quantiy`, `Price`, `sale-price`). Null for a
 * product field, for an own word (`height`, `price2`), and for a name further from every field: a
 * field of the marketplace's own may be named so (`material`; `size`, though two edits from
 * another platform's `sale`).
 */
export function meantField(name: string): { field: string; otherName: boolean } | null {
  if (TOOL_FIELDS.includes(name) || ownWord(name)) return null;
  const meant = OTHER_NAMES[name.toLowerCase()];
  if (meant !== undefined) return { field: meant, otherName: true };
  const lower = name.toLowerCase();
  const field = TOOL_FIELDS.find((candidate) => candidate === lower || oneTypoFrom(lower, candidate));
  return field === undefined ? null : { field, otherName: false };
}

/**
 * `lower` is `word` with one typo. A short word's one edit is mostly another word (`min` is one
 * letter from `mpn`, `tag` from `tax`, `sale` from `sole`, `link` from `line`), so under five
 * letters only a letter typed twice (`skuu`, `qtty`) or two neighbours swapped (`nmae`) count.
 */
export function oneTypoFrom(lower: string, word: string): boolean {
  if (word.length >= 5) return editDistance(lower, word) === 1;
  if (lower.length === word.length)
    return [...word].some(
      (_, i) => i + 1 < word.length && lower === word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2),
    );
  if (lower.length !== word.length + 1) return false;
  for (let i = 1; i < lower.length; i++)
    if (lower[i] === lower[i - 1] && lower.slice(0, i) + lower.slice(i + 1) === word) return true;
  return false;
}

/** The candidate whose spelling is fewest edits from `name`, case aside (the first of equals). */
function nearestSpelling(
  name: string,
  candidates: readonly (readonly [spelling: string, field: string])[],
): { field: string; distance: number } | null {
  let best: { field: string; distance: number } | null = null;
  for (const [spelling, field] of candidates) {
    const distance = editDistance(name.toLowerCase(), spelling.toLowerCase());
    if (best === null || distance < best.distance) best = { field, distance };
  }
  return best;
}

/** One line: `--missing: stock: no product has it; the stock field is quantity`. */
export function unknownFieldLine(named: NamedField, known: readonly string[], cause: string): string {
  const nearest = nearestField(named.name, known);
  const hint = !nearest
    ? ''
    : nearest.otherName
      ? `; the ${named.name} field is ${nearest.field}`
      : `; the nearest field is ${shownName(nearest.field)}`;
  return `${named.option}: ${named.name}: ${cause}${hint}`;
}

/**
 * Edits from `a` to `b`: insertions, deletions, substitutions and swaps of two neighbouring letters,
 * one each (optimal string alignment): `qunatity` is one typo from `quantity`, not two.
 */
export function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        current[j] = Math.min(current[j] ?? 0, (before[j - 2] ?? 0) + 1);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length] ?? 0;
}
