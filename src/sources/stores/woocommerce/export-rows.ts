import { namedValues } from '../../../named-values.js';
/**
 * The columns of WooCommerce's product CSV export that the `woocommerce` preset reads: a product
 * read through the REST API becomes the row its export would hold (a variable product, then a row
 * per variation naming it in Parent), so the preset gives it the meaning it gives the export: a
 * sale included, judged by its dates at the run's start, with the note the export's row gets, and
 * a blank Sale price (no sale) ending one the marketplace still shows (sale-dates.ts).
 */
export const WOO_EXPORT_COLUMNS = [
  'ID',
  'Type',
  'SKU',
  'GTIN, UPC, EAN, or ISBN',
  'Name',
  'Published',
  'Visibility in catalog',
  'Short description',
  'Description',
  'Date sale price starts',
  'Date sale price ends',
  'Sale price',
  'Regular price',
  'In stock?',
  'Stock',
  'Weight',
  'Categories',
  'Tags',
  'Images',
  'Parent',
  'Grouped products',
  'External URL',
  'Brands',
  ...[1, 2, 3, 4, 5].flatMap((n) => [`Attribute ${n} name`, `Attribute ${n} value(s)`]),
];

/** The exporter's Published: 1 published, 0 private (a disabled variation), -1 draft or pending. */
const PUBLISHED: Record<string, string> = { publish: '1', private: '0' };

/** A category's path as the export writes it (`Clothing > Tshirts`), by id. */
export type CategoryPaths = ReadonlyMap<number, string>;

/** Builds each category's path from the store's list of categories (id, name, parent). */
export function categoryPaths(categories: Array<Record<string, unknown>>): Map<number, string> {
  const byId = new Map(categories.map((category) => [Number(category.id), category]));
  const paths = new Map<number, string>();
  for (const id of byId.keys()) {
    const names: string[] = [];
    const seen = new Set<number>();
    for (let at = byId.get(id); at && !seen.has(Number(at.id)); at = byId.get(Number(at.parent))) {
      seen.add(Number(at.id));
      names.unshift(text(at.name));
    }
    paths.set(id, names.join(' > '));
  }
  return paths;
}

export function productRow(product: Record<string, unknown>, paths: CategoryPaths): Record<string, string> {
  const row = blankRow();
  row.ID = text(product.id);
  row.Type = text(product.type);
  row.Name = text(product.name);
  row['Visibility in catalog'] = text(product.catalog_visibility);
  row['Short description'] = asExported(text(product.short_description));
  row.Description = asExported(text(product.description));
  putCommon(row, product);
  row.Categories = list(product.categories)
    .map((category) => paths.get(Number(category.id)) ?? text(category.name))
    .join(', ');
  row.Tags = list(product.tags)
    .map((tag) => text(tag.name))
    .join(', ');
  row.Images = list(product.images)
    .map((image) => text(image.src))
    .join(', ');
  row['Grouped products'] = (Array.isArray(product.grouped_products) ? product.grouped_products : [])
    .map((id) => `id:${text(id)}`)
    .join(', ');
  row['External URL'] = text(product.external_url);
  row.Brands = list(product.brands)
    .map((brand) => text(brand.name))
    .join(', ');
  list(product.attributes)
    .slice(0, 5)
    .forEach((attribute, i) => {
      row[`Attribute ${i + 1} name`] = text(attribute.name);
      row[`Attribute ${i + 1} value(s)`] = (Array.isArray(attribute.options) ? attribute.options : [])
        .map(text)
        .join(', ');
    });
  return row;
}

/** A variation of `parent` (its variable product, as the API listed it). */
export function variationRow(
  variation: Record<string, unknown>,
  parent: Record<string, unknown>,
): Record<string, string> {
  const row = blankRow();
  row.ID = text(variation.id);
  row.Type = 'variation';
  row.Name = text(variation.name);
  row['Visibility in catalog'] = 'visible';
  row.Description = asExported(text(variation.description));
  row.Parent = `id:${text(parent.id)}`;
  putCommon(row, variation);
  // The API gives a variation without a SKU of its own its parent's (WC_Product_Variation::get_sku
  // in the `view` context); the export writes its own, blank. WooCommerce keeps SKUs unique across
  // products and variations, so one equal to the parent's is never the variation's: read as none,
  // keyed by its ID as the export keys it, not as a second product with the parent's SKU.
  if (row.SKU !== '' && row.SKU === text(parent.sku)) row.SKU = '';
  const image = variation.image as { src?: unknown } | null | undefined;
  row.Images = text(image?.src);
  list(variation.attributes)
    .slice(0, 5)
    .forEach((attribute, i) => {
      row[`Attribute ${i + 1} name`] = text(attribute.name);
      row[`Attribute ${i + 1} value(s)`] = text(attribute.option);
    });
  return row;
}

/** What products and variations share: SKU, state, prices and sale dates, stock, weight, GTIN. */
function putCommon(row: Record<string, string>, item: Record<string, unknown>): void {
  row.SKU = text(item.sku);
  row['GTIN, UPC, EAN, or ISBN'] = text(item.global_unique_id);
  row.Published = PUBLISHED[text(item.status)] ?? '-1';
  row['Regular price'] = text(item.regular_price);
  // The sale price with its dates, as the export writes them: the preset judges whether the sale
  // runs (one instant for the whole run) and says so in the row's note, as it does for the export.
  row['Sale price'] = text(item.sale_price);
  row['Date sale price starts'] = gmtText(item.date_on_sale_from_gmt);
  row['Date sale price ends'] = gmtText(item.date_on_sale_to_gmt);
  // The stock counts where the store manages it (a variation may use its parent's: `parent`).
  if (item.manage_stock === true || item.manage_stock === 'parent') row.Stock = text(item.stock_quantity);
  row['In stock?'] =
    { instock: '1', outofstock: '0', onbackorder: 'backorder' }[text(item.stock_status)] ?? '';
  row.Weight = text(item.weight);
}

/**
 * A sale date of the API (`date_on_sale_*_gmt`, GMT) as the export's cell: `2030-12-24 10:00:00`,
 * which the preset reads as UTC (sale-dates.ts). One the API gives in no form read is blank.
 */
function gmtText(value: unknown): string {
  if (typeof value !== 'string' || value === '') return '';
  const at = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);
  return Number.isNaN(at) ? '' : new Date(at).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * A description as the exporter writes it (WC_Product_CSV_Exporter::filter_description_field,
 * WooCommerce 3.5.4+): a `\n` the text holds as `\\n`, then each newline as `\n`. The preset
 * reads the export's cell back to the text (catalog/presets/woocommerce-description.ts).
 */
function asExported(description: string): string {
  return description.replaceAll('\\n', '\\\\n').replaceAll('\n', '\\n');
}

function blankRow(): Record<string, string> {
  const row = namedValues();
  for (const column of WOO_EXPORT_COLUMNS) row[column] = '';
  return row;
}

function list(value: unknown): Array<Record<string, unknown>> {
  return Array.isArray(value)
    ? (value.filter((item) => item && typeof item === 'object') as Array<Record<string, unknown>>)
    : [];
}

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : String(value);
}
