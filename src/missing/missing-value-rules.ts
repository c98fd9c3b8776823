import { parseDecimal } from '../catalog/decimal.js';
import { MONEY_FIELDS } from '../catalog/money.js';
import type { FieldValue } from '../interfaces.js';

/**
 * What `--missing` may not write (docs/options.md): it takes a product gone from the source off
 * sale, night after night, without a row to check it against, so a value that would put the product
 * on sale, lose it, or be refused by the API for each product alike is refused once, before the run.
 */

/**
 * The statuses that take a product off sale: `inactive` (what `--missing` is shown with) and those
 * this tool sends for a row its source does not sell (catalog/unsold.ts). The Seller API spec names
 * no states (its section 3): any other word is a typo here, or `active`, which sells.
 */
export const OFF_SALE_STATUSES: readonly string[] = ['inactive', 'draft', 'private', 'archived', 'hidden'];

/** Under half a cent, a price is 0 once rounded half up to cents, as the API keeps it. */
const HALF_CENT = 0.005;

/**
 * Why `--missing field=text` (its value `value`, typed as the generic preset reads the column) must
 * not be written, or null. `option` names where it was given (`--missing`, a job file's key).
 */
export function refusedMissingValue(
  field: string,
  text: string,
  value: FieldValue,
  option: string,
): string | null {
  const pair = `${field}=${text}`;
  switch (field) {
    case 'sku':
      return `${option}: sku is a product's key, which runs find it by: never a ${option} field (a product given another key is lost to the source's row, and comes back as a second product)`;
    case 'id':
      return `${option}: id is the product's number on the marketplace, not a field a PUT sets`;
    case 'status':
      return typeof value === 'string' && OFF_SALE_STATUSES.includes(value)
        ? null
        : `${option}: ${pair} is not a status that takes a product off sale: give one of ${OFF_SALE_STATUSES.join(', ')}`;
    case 'active':
      return value === true
        ? `${option}: ${pair} would put a product gone from the source on sale: give active=no`
        : null;
    case 'quantity':
      return isNegative(text)
        ? `${option}: ${pair} is below 0: the API takes a quantity of 0 or more; take the product off sale with quantity=0`
        : null;
  }
  // A row's price of 0 is sent only where its source gives 0 (a free product: money.ts roundedToZero);
  // a product gone from the source has no row that says so.
  if (MONEY_FIELDS.has(field) && typeof value === 'number' && Math.abs(value) < HALF_CENT)
    return `${option}: ${pair} would put a product gone from the source on sale for nothing (a price is sent as 0 only where the source gives 0): take it off sale with quantity=0 or status=inactive`;
  return null;
}

function isNegative(text: string): boolean {
  const parsed = parseDecimal(text, 'auto');
  return parsed.ok && parsed.value.startsWith('-');
}
