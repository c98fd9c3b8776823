/**
 * The product field table: what each field the presets produce holds, and how a raw cell becomes
 * the value sent. Price semantics: `price` is the regular (list) price and `sale_price` the reduced
 * price charged while on sale (as in WooCommerce, Magento `special_price` and Google Merchant);
 * Shopify's "Compare At Price" is translated into that pair by its preset.
 */
export type FieldKind = 'string' | 'decimal' | 'integer' | 'list' | 'boolean';

export const PRODUCT_FIELDS: Readonly<Record<string, FieldKind>> = {
  sku: 'string',
  name: 'string',
  description: 'string',
  price: 'decimal',
  sale_price: 'decimal',
  currency: 'string',
  quantity: 'integer',
  brand: 'string',
  barcode: 'string',
  mpn: 'string',
  images: 'list',
  category: 'string',
  tags: 'list',
  /** In the unit of the source platform (Shopify: grams; WooCommerce: the unit in its header). */
  weight: 'decimal',
  condition: 'string',
  availability: 'string',
  status: 'string',
  active: 'boolean',
  url: 'string',
};

/** Fields that must never be negative. */
export const NON_NEGATIVE_FIELDS: ReadonlySet<string> = new Set(['price', 'sale_price', 'weight']);

/** Unknown fields (generic preset, mapping files) are strings. */
export function kindOf(field: string): FieldKind {
  // Own keys only: a column named `valueOf` is a string field, not Object's method.
  return Object.hasOwn(PRODUCT_FIELDS, field) ? (PRODUCT_FIELDS[field] as FieldKind) : 'string';
}

const TRUE_WORDS = new Set(['1', 'true', 'yes', 'y', 'on', 'active', 'enabled']);
const FALSE_WORDS = new Set(['0', 'false', 'no', 'n', 'off', 'inactive', 'disabled']);

/** `TRUE`, `yes`, `1` … → true; `FALSE`, `no`, `0` … → false; anything else → null. */
export function parseBoolean(text: string): boolean | null {
  const word = text.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return null;
}

/** A comma-separated cell as a list, blanks dropped (`"a.jpg, b.jpg"` → two URLs). */
export function splitList(text: string, separator: string | RegExp = ','): string[] {
  return listItems(text.split(separator));
}

/** A list's items as a list field takes them: trimmed, blanks dropped. */
export function listItems(items: readonly string[]): string[] {
  return items.map((item) => item.trim()).filter((item) => item !== '');
}

/**
 * A spreadsheet turned a long number into scientific notation (`3.65275E+11`, or `3,65275E+11` in a
 * comma-decimal locale): digits are lost.
 */
export function isSpreadsheetMangled(text: string): boolean {
  return /^\d(?:[.,]\d+)?E\+\d+$/i.test(text.trim());
}

/**
 * Why a match key a spreadsheet turned into a number is refused: it is not the key the seller wrote
 * (`123456789012` saved as `1.23457E+11`), and matched as it stands it would create a second product.
 */
export function mangledKeyReason(field: string, key: string): string {
  return `${field} "${key}" was turned into a number by a spreadsheet (scientific notation, digits lost): export the column as text`;
}
