import type { SourceRecord } from '../../interfaces.js';
import { isBlankColumn } from '../../sources/csv-header.js';
import type { LocalizedHeader } from './types.js';

/**
 * PrestaShop's product import maps columns by position, not by header: its back office offers
 * its field list in one order (AdminImportController's `available_fields`), and a file written for
 * it follows that order, so its header cells are only labels and some are left blank. PrestaShop's
 * own 1.6 sample leaves eight blank (between `Ecotax` and `Weight`, between `Quantity` and `Short
 * description`), the Visibility column among them. A run of blank header cells is named only when
 * the named columns on either side are that many fields apart in one of the field lists below (no
 * other name fits there), and a Visibility so named holds only PrestaShop's visibility values.
 */

/** PrestaShop 1.6's product fields, in the order of AdminImportController (1.6.1). */
const FIELDS_1_6 = [
  'ID',
  'Active (0/1)',
  'Name *',
  'Categories (x,y,z...)',
  'Price tax excluded',
  'Price tax included',
  'Tax rules ID',
  'Wholesale price',
  'On sale (0/1)',
  'Discount amount',
  'Discount percent',
  'Discount from (yyyy-mm-dd)',
  'Discount to (yyyy-mm-dd)',
  'Reference #',
  'Supplier reference #',
  'Supplier',
  'Manufacturer',
  'EAN13',
  'UPC',
  'Ecotax',
  'Width',
  'Height',
  'Depth',
  'Weight',
  'Quantity',
  'Minimal quantity',
  'Visibility',
  'Additional shipping cost',
  'Unit for the unit price',
  'Unit price',
  'Short description',
  'Description',
  'Tags (x,y,z...)',
  'Meta title',
  'Meta keywords',
  'Meta description',
  'URL rewritten',
  'Text when in stock',
  'Text when backorder allowed',
  'Available for order (0 = No, 1 = Yes)',
  'Product availability date',
  'Product creation date',
  'Show price (0 = No, 1 = Yes)',
  'Image URLs (x,y,z...)',
  'Delete existing images (0 = No, 1 = Yes)',
  'Feature (Name:Value:Position:Customized)',
  'Available online only (0 = No, 1 = Yes)',
  'Condition',
  'Customizable (0 = No, 1 = Yes)',
  'Uploadable files (0 = No, 1 = Yes)',
  'Text fields (0 = No, 1 = Yes)',
  'Action when out of stock',
  'ID / Name of shop',
  'Advanced Stock Management',
  'Depends on stock',
  'Warehouse',
];

/** PrestaShop 1.7's, as its own sample (docs/csv_import/products_import.csv) writes them. */
const FIELDS_1_7 = [
  'Product ID',
  'Active (0/1)',
  'Name *',
  'Categories (x,y,z...)',
  'Price tax excluded',
  'Tax rules ID',
  'Wholesale price',
  'On sale (0/1)',
  'Discount amount',
  'Discount percent',
  'Discount from (yyyy-mm-dd)',
  'Discount to (yyyy-mm-dd)',
  'Reference #',
  'Supplier reference #',
  'Supplier',
  'Manufacturer',
  'EAN13',
  'UPC',
  'MPN',
  'Ecotax',
  'Width',
  'Height',
  'Depth',
  'Weight',
  'Delivery time of in-stock products',
  'Delivery time of out-of-stock products with allowed orders',
  'Quantity',
  'Minimal quantity',
  'Low stock level',
  'Send me an email when the quantity is under this level',
  'Visibility',
  'Additional shipping cost',
  'Unity',
  'Unit price',
  'Summary',
  'Description',
  'Tags (x,y,z...)',
  'Meta title',
  'Meta keywords',
  'Meta description',
  'URL rewritten',
  'Text when in stock',
  'Text when backorder allowed',
  'Available for order (0 = No, 1 = Yes)',
  'Product available date',
  'Product creation date',
  'Show price (0 = No, 1 = Yes)',
  'Image URLs (x,y,z...)',
  'Image alt texts (x,y,z...)',
  'Delete existing images (0 = No, 1 = Yes)',
  'Feature(Name:Value:Position)',
  'Available online only (0 = No, 1 = Yes)',
  'Condition',
  'Customizable (0 = No, 1 = Yes)',
  'Uploadable files (0 = No, 1 = Yes)',
  'Text fields (0 = No, 1 = Yes)',
  'Out of stock action',
  'Virtual product',
  'File URL',
  'Number of allowed downloads',
  'Expiration date',
  'Number of days',
  'ID / Name of shop',
  'Advanced stock management',
  'Depends On Stock',
  'Warehouse',
  'Acessories (x,y,z...)',
];

/** A header cell as the lists are compared: case, spacing and a trailing `*` aside. */
function plain(name: string): string {
  return name
    .replace(/\s*\*\s*$/, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** The 1.6 sample's one price column stands where the list has two (price_tex, price_tin). */
const SPANS: Readonly<Record<string, readonly string[]>> = {
  'price tax excluded or price tax included': ['price tax excluded', 'price tax included'],
};

interface Layout {
  fields: readonly string[];
  /** Position(s) of each field by its plain name. */
  at: ReadonlyMap<string, number>;
}

function layout(fields: readonly string[]): Layout {
  return { fields, at: new Map(fields.map((field, i) => [plain(field), i])) };
}

const LAYOUTS = [layout(FIELDS_1_6), layout(FIELDS_1_7)];

/** Where a named column stands in a layout: its first and last position (a span has two). */
function positions(name: string, of: Layout): [number, number] | undefined {
  const found = (SPANS[plain(name)] ?? [plain(name)])
    .map((part) => of.at.get(part))
    .filter((i): i is number => i !== undefined);
  return found.length === 0 ? undefined : [Math.min(...found), Math.max(...found)];
}

/** The names a run of `length` blank cells between `before` and `after` can only have, in one layout. */
function namesBetween(before: string, after: string, length: number, of: Layout): string[] | undefined {
  const left = positions(before, of);
  const right = positions(after, of);
  if (!left || !right || right[0] - left[1] - 1 !== length) return undefined;
  return of.fields.slice(left[1] + 1, right[0]);
}

const VISIBILITY_VALUES = new Set(['', 'both', 'catalog', 'search', 'none']);

/**
 * The header with its blank cells named by their place in PrestaShop's field list, where that
 * place is certain (see above); undefined when none is. `columns` are the preset's names (an
 * English header, or one read back from the back office's language) with blank cells as the CSV
 * reader names them (`column_20`).
 */
export function nameBlankPrestashopColumns(
  columns: readonly string[],
  sample: readonly SourceRecord[],
): LocalizedHeader | undefined {
  const names = [...columns];
  let named = 0;
  let i = 0;
  while (i < columns.length) {
    if (!isBlankColumn(columns[i]!, i)) {
      i++;
      continue;
    }
    const start = i;
    while (i < columns.length && isBlankColumn(columns[i]!, i)) i++;
    const before = columns[start - 1];
    const after = columns[i];
    if (before === undefined || after === undefined) continue;
    const fits = LAYOUTS.map((of) => namesBetween(before, after, i - start, of)).filter(
      (fit): fit is string[] => fit !== undefined,
    );
    const [fit] = fits;
    // Two lists that both fit must agree on every name, or the place is not certain.
    if (!fit || fits.some((other) => other.join('\n') !== fit.join('\n'))) continue;
    // A name the header already has elsewhere: the file does not follow the list.
    if (fit.some((name) => columns.some((column) => plain(column) === plain(name)))) continue;
    const visibility = fit.findIndex((name) => plain(name) === 'visibility');
    if (visibility >= 0 && !holdsVisibility(columns[start + visibility]!, sample)) continue;
    fit.forEach((name, k) => {
      names[start + k] = name;
    });
    named += fit.length;
  }
  if (named === 0) return undefined;
  return { columns: names, says: 'blank header cells named by their place in PrestaShop’s field list' };
}

function holdsVisibility(column: string, sample: readonly SourceRecord[]): boolean {
  return sample.every((record) => VISIBILITY_VALUES.has((record.values[column] ?? '').trim().toLowerCase()));
}
