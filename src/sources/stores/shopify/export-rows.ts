import { namedValues } from '../../../named-values.js';
import type { BulkProduct } from './result-file.js';

/**
 * The columns of Shopify's product CSV export that the `shopify` preset reads: a product read
 * through the API becomes the rows its export would hold, so the preset gives it the meaning it
 * gives the export (status, compare-at price, tracked stock, variants, images, the derived key of a
 * variant without SKU), and the same shop read either way syncs to the same products.
 */
export const SHOPIFY_EXPORT_COLUMNS = [
  'Handle',
  'Title',
  'Body (HTML)',
  'Vendor',
  'Product Category',
  'Type',
  'Tags',
  'Option1 Name',
  'Option1 Value',
  'Option2 Name',
  'Option2 Value',
  'Option3 Name',
  'Option3 Value',
  'Variant SKU',
  'Variant Grams',
  'Variant Inventory Tracker',
  'Variant Inventory Qty',
  'Variant Price',
  'Variant Compare At Price',
  'Variant Barcode',
  'Image Src',
  'Image Position',
  'Variant Image',
  'Status',
] as const;

/** Grams in one unit of each of Shopify's WeightUnit values (the export's `Variant Grams`). */
const GRAMS: Record<string, number> = { GRAMS: 1, KILOGRAMS: 1000, OUNCES: 28.349523125, POUNDS: 453.59237 };

/**
 * A product as its export's rows: the first row holds the product's fields, each variant a row of
 * its own (the first shares the product's row), and the images beyond the variants' rows come as
 * rows holding only Handle and Image Src, in the media's order.
 */
export function exportRows(bulk: BulkProduct): Array<Record<string, string>> {
  const product = bulk.product;
  const options = [...((product.options as Array<{ name?: string; position?: number }>) ?? [])]
    .sort((a, b) => (a.position ?? 0) - (b.position ?? 0))
    .slice(0, 3)
    .map((option) => option.name ?? '');
  const images = bulk.images
    .map((media) => text((media.image as { url?: unknown } | null)?.url))
    .filter(Boolean);
  const count = Math.max(1, bulk.variants.length, images.length);
  const rows: Array<Record<string, string>> = [];
  for (let i = 0; i < count; i++) {
    const row = namedValues();
    for (const column of SHOPIFY_EXPORT_COLUMNS) row[column] = '';
    row.Handle = text(product.handle);
    if (i === 0) {
      row.Title = text(product.title);
      row['Body (HTML)'] = text(product.descriptionHtml);
      row.Vendor = text(product.vendor);
      row['Product Category'] = text((product.category as { fullName?: unknown } | null)?.fullName);
      row.Type = text(product.productType);
      row.Tags = Array.isArray(product.tags) ? product.tags.map(text).join(', ') : text(product.tags);
      row.Status = text(product.status).toLowerCase();
      options.forEach((name, n) => {
        row[`Option${n + 1} Name`] = name;
      });
    }
    const variant = bulk.variants[i];
    if (variant) putVariant(row, variant, options);
    const image = images[i];
    if (image) {
      row['Image Src'] = image;
      row['Image Position'] = String(i + 1);
    }
    rows.push(row);
  }
  return rows;
}

function putVariant(row: Record<string, string>, variant: Record<string, unknown>, options: string[]): void {
  const selected = (variant.selectedOptions as Array<{ name?: string; value?: string }>) ?? [];
  options.forEach((name, n) => {
    row[`Option${n + 1} Value`] = text(selected.find((option) => option.name === name)?.value);
  });
  const item = (variant.inventoryItem ?? {}) as {
    tracked?: boolean;
    measurement?: { weight?: { unit?: string; value?: number } | null } | null;
  };
  row['Variant SKU'] = text(variant.sku);
  row['Variant Price'] = text(variant.price);
  row['Variant Compare At Price'] = text(variant.compareAtPrice);
  row['Variant Barcode'] = text(variant.barcode);
  row['Variant Inventory Qty'] = text(variant.inventoryQuantity);
  // What the export writes: the tracker's name where Shopify counts the stock, blank where it does not.
  row['Variant Inventory Tracker'] = item.tracked ? 'shopify' : '';
  row['Variant Grams'] = grams(item.measurement?.weight);
  row['Variant Image'] = text((variant.image as { url?: unknown } | null)?.url);
}

function grams(weight: { unit?: string; value?: number } | null | undefined): string {
  if (!weight || typeof weight.value !== 'number') return '';
  const factor = GRAMS[weight.unit ?? 'GRAMS'] ?? 1;
  // Twelve significant digits: the grams a store keeps, without the float noise of the product.
  return String(Number((weight.value * factor).toPrecision(12)));
}

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : String(value);
}
