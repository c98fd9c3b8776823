import { editDistance, meantField, OTHER_NAMES, ownWord, TOOL_FIELDS } from './field-names.js';

/** The product field a column sent under its own name is near, for the summary's hint. */
export interface NearField {
  field: string;
  /** Another platform's word the column misspells or prefixes (`Titel`: `title`), said with it. */
  word?: string;
}

/**
 * The product field a column was likely meant for, for a hint only (never a refusal, never a
 * reading): what meantField says (`quantiy`, `Price`, `stock`), else another platform's word
 * misspelt (`Stok`, `Titel`, `Qtty`), else a field or word after `product`/`item` (`Product Name`,
 * `item_price`). meantField alone measured a name against the tool's own fields: a header
 * `sku,Titel,Product Name,price` got no hint, and every row was `missing name for a new product`.
 * None for a product field itself, and an own word (`height`, `price2`).
 */
export function nearField(name: string): NearField | null {
  if (TOOL_FIELDS.includes(name)) return null;
  const meant = meantField(name.trim());
  if (meant) return { field: meant.field };
  if (ownWord(name)) return null;
  const prefixed = prefixedField(name);
  if (prefixed) return prefixed;
  const lower = name.trim().toLowerCase();
  for (const [word, field] of Object.entries(OTHER_NAMES)) if (misspells(lower, word)) return { field, word };
  return null;
}

/** `Product Name`, `item_price`, `productTitle`: a field, or another platform's word, so prefixed. */
function prefixedField(name: string): NearField | null {
  const words = name
    .trim()
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  const rest = /^(?:product|item)_(.+)$/.exec(words)?.[1];
  if (rest === undefined) return null;
  if (TOOL_FIELDS.includes(rest)) return { field: rest };
  const field = Object.hasOwn(OTHER_NAMES, rest) ? OTHER_NAMES[rest] : undefined;
  return field === undefined ? null : { field, word: rest };
}

/**
 * `lower` is `word` with one typo. A short word's one edit is mostly another word (`tag`: `tax`,
 * `sale`: `sales`, `sole`, `scale`; `link`: `line`; `ean`: `mean`), so under five letters only a
 * letter typed twice counts (`qtty`).
 */
function misspells(lower: string, word: string): boolean {
  if (word.length >= 5) return editDistance(lower, word) === 1;
  if (lower.length !== word.length + 1) return false;
  for (let i = 1; i < lower.length; i++)
    if (lower[i] === lower[i - 1] && lower.slice(0, i) + lower.slice(i + 1) === word) return true;
  return false;
}
