import { meantField, OTHER_NAMES, oneTypoFrom, ownWord, TOOL_FIELDS } from './field-names.js';

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
 * A barcode's kind (`EAN13`) is the barcode's. None for a product field itself, and an own word
 * (`height`, `price2`).
 */
export function nearField(name: string): NearField | null {
  if (TOOL_FIELDS.includes(name)) return null;
  const meant = meantField(name.trim());
  if (meant) return { field: meant.field };
  const barcode = barcodeKind(name);
  if (barcode) return { field: 'barcode', word: barcode };
  if (ownWord(name)) return null;
  const prefixed = prefixedField(name);
  if (prefixed) return prefixed;
  const lower = name.trim().toLowerCase();
  for (const [word, field] of Object.entries(OTHER_NAMES))
    if (oneTypoFrom(lower, word)) return { field, word };
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
 * `EAN13`, `GTIN-14`, `UPC-A`, `ISBN 10`: a barcode named with its standard's length or kind, the
 * usual header of an ERP's or a wholesaler's barcode column. Unlike `price2` (a second price) it is
 * the barcode itself, so it is hinted at (never read as it: a file may carry two of them).
 */
function barcodeKind(name: string): string | null {
  return /^(ean|gtin|upc|isbn)[\s_-]?(?:8|10|12|13|14|a|e)$/i.exec(name.trim())?.[1]?.toLowerCase() ?? null;
}
