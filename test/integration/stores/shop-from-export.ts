import { openSource } from '../../../src/sources/index.js';
import type { ShopProduct, ShopVariant } from '../../../src/sources/stores/shopify/double.js';

/**
 * The shop a Shopify CSV export was written from, as its Admin API would give it: rows grouped by
 * Handle, the product's fields from the row with a Title, each variant row a variant (its options by
 * the product's option names), each Image Src a media image in order. What seeds the double for
 * "the same store from its CSV export and from its API".
 */
export async function shopFromExport(file: string): Promise<ShopProduct[]> {
  const opened = await openSource(file);
  const groups = new Map<string, Array<Record<string, string>>>();
  for await (const record of opened.records) {
    const handle = record.values.Handle ?? '';
    const group = groups.get(handle) ?? [];
    group.push(record.values);
    groups.set(handle, group);
  }
  let n = 0;
  const products: ShopProduct[] = [];
  for (const [handle, rows] of groups) {
    const main = rows.find((row) => (row.Title ?? '') !== '') ?? rows[0]!;
    const names = [1, 2, 3].map((i) => main[`Option${i} Name`] ?? '').filter((name) => name !== '');
    const variants: ShopVariant[] = rows
      .filter((row) => row['Variant SKU'] || row['Variant Price'] || row['Option1 Value'])
      .map((row) => {
        const grams = row['Variant Grams'] ?? '';
        return {
          id: `gid://shopify/ProductVariant/${++n}`,
          sku: row['Variant SKU'] ?? '',
          price: row['Variant Price'] ?? '',
          compareAtPrice: row['Variant Compare At Price'] || null,
          barcode: row['Variant Barcode'] || null,
          inventoryQuantity: row['Variant Inventory Qty'] ? Number(row['Variant Inventory Qty']) : null,
          selectedOptions: names.map((name, i) => ({ name, value: row[`Option${i + 1} Value`] ?? '' })),
          image: row['Variant Image'] ? { url: row['Variant Image'] } : null,
          inventoryItem: {
            tracked: (row['Variant Inventory Tracker'] ?? '') !== '',
            measurement: { weight: grams === '' ? null : { unit: 'GRAMS' as const, value: Number(grams) } },
          },
        };
      });
    const images = [...new Set(rows.map((row) => row['Image Src'] ?? '').filter((src) => src !== ''))];
    products.push({
      id: `gid://shopify/Product/${++n}`,
      handle,
      title: main.Title ?? '',
      descriptionHtml: main['Body (HTML)'] ?? '',
      vendor: main.Vendor ?? '',
      productType: main.Type ?? '',
      tags: (main.Tags ?? '')
        .split(',')
        .map((tag) => tag.trim())
        .filter((tag) => tag !== ''),
      status: (main.Status || 'active').toUpperCase() as ShopProduct['status'],
      category: main['Product Category'] ? { fullName: main['Product Category'] } : null,
      options: names.map((name, i) => ({ name, position: i + 1 })),
      media: images.map((url) => ({ id: `gid://shopify/MediaImage/${++n}`, image: { url } })),
      variants,
    });
  }
  return products;
}
