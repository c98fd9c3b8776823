import { unescapeWoo } from '../../../src/catalog/presets/woocommerce.js';
import { wooDescriptionOfCell } from '../../../src/catalog/presets/woocommerce-description.js';
import { openSource } from '../../../src/sources/index.js';
import type {
  WooCategory,
  WooProduct,
  WooVariation,
} from '../../../src/sources/stores/woocommerce/double.js';

const STATUS: Record<string, WooProduct['status']> = { '1': 'publish', '0': 'private', '-1': 'draft' };
const STOCK: Record<string, WooProduct['stock_status']> = {
  '1': 'instock',
  '0': 'outofstock',
  backorder: 'onbackorder',
};

/**
 * The store a WooCommerce CSV export was written from, as its REST API would give it: each row a
 * product, each `variation` row a variation of the product its Parent names (by SKU or `id:NN`),
 * the category paths (`Clothing > Tshirts`) a tree of categories, a description's `\n` (as the
 * exporter writes a newline) a newline. What seeds the double for "the
 * same store from its CSV export and from its API".
 */
export async function storeFromWooExport(
  file: string,
): Promise<{ products: WooProduct[]; categories: WooCategory[] }> {
  const opened = await openSource(file);
  const rows: Array<Record<string, string>> = [];
  for await (const record of opened.records) {
    const row: Record<string, string> = {};
    for (const [key, value] of Object.entries(record.values)) row[key.trim()] = unescapeWoo(value).trim();
    rows.push(row);
  }
  const categories: WooCategory[] = [];
  const categoryOf = (path: string): { id: number; name: string } => {
    let parent = 0;
    let found: WooCategory | undefined;
    for (const name of path.split('>').map((part) => part.trim())) {
      found = categories.find((category) => category.name === name && category.parent === parent);
      if (!found) {
        found = { id: 1000 + categories.length, name, parent };
        categories.push(found);
      }
      parent = found.id;
    }
    return { id: found!.id, name: found!.name };
  };
  const list = (text: string | undefined) =>
    (text ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
  const weightOf = (row: Record<string, string>) =>
    Object.entries(row).find(([key]) => /^weight( \(.*\))?$/i.test(key))?.[1] ?? '';
  const stockOf = (row: Record<string, string>) => ({
    manage_stock: (row.Stock ?? '') !== '',
    stock_quantity: (row.Stock ?? '') !== '' ? Number(row.Stock) : null,
    ...(STOCK[(row['In stock?'] ?? '').toLowerCase()]
      ? { stock_status: STOCK[(row['In stock?'] ?? '').toLowerCase()] }
      : {}),
  });
  const attributeNames = (row: Record<string, string>) =>
    [1, 2, 3, 4, 5].map(
      (n) =>
        [
          row[`Attribute ${n} name`] ?? row[`Attribute ${n} Name`] ?? '',
          row[`Attribute ${n} value(s)`] ?? '',
        ] as const,
    );

  const products: WooProduct[] = [];
  let next = 5000;
  for (const row of rows.filter((line) => !list((line.Type ?? '').toLowerCase()).includes('variation'))) {
    const type = list((row.Type ?? '').toLowerCase()).find((t) =>
      ['simple', 'variable', 'grouped', 'external'].includes(t),
    );
    products.push({
      id: row.ID ? Number(row.ID) : next++,
      name: row.Name ?? '',
      type: (type ?? 'simple') as WooProduct['type'],
      status: STATUS[row.Published ?? ''] ?? 'publish',
      ...(row['Visibility in catalog']
        ? { catalog_visibility: row['Visibility in catalog'] as WooProduct['catalog_visibility'] }
        : {}),
      sku: row.SKU ?? '',
      description: wooDescriptionOfCell(row.Description ?? ''),
      short_description: wooDescriptionOfCell(row['Short description'] ?? ''),
      regular_price: row['Regular price'] ?? '',
      sale_price: row['Sale price'] ?? '',
      ...stockOf(row),
      weight: weightOf(row),
      categories: list(row.Categories).map(categoryOf),
      tags: list(row.Tags).map((name, i) => ({ id: i + 1, name })),
      images: list(row.Images).map((src, i) => ({ id: i + 1, src })),
      attributes: attributeNames(row)
        .filter(([name, values]) => name !== '' || values !== '')
        .map(([name, values]) => ({ name, options: list(values) })),
      grouped_products: [],
      external_url: row['External URL'] ?? '',
      variations: [],
    });
  }
  for (const row of rows.filter((line) => list((line.Type ?? '').toLowerCase()).includes('variation'))) {
    const ref = row.Parent ?? '';
    const parent = products.find((product) =>
      ref.startsWith('id:') ? `id:${product.id}` === ref : product.sku === ref,
    );
    if (!parent) throw new Error(`variation ${row.SKU || row.ID} names no product of the file: ${ref}`);
    const variation: WooVariation = {
      id: row.ID ? Number(row.ID) : next++,
      name: row.Name ?? '',
      sku: row.SKU ?? '',
      status: row.Published === '0' ? 'private' : 'publish',
      description: wooDescriptionOfCell(row.Description ?? ''),
      regular_price: row['Regular price'] ?? '',
      sale_price: row['Sale price'] ?? '',
      ...stockOf(row),
      weight: weightOf(row),
      image: list(row.Images)[0] ? { id: 1, src: list(row.Images)[0]! } : null,
      attributes: attributeNames(row)
        .filter(([, value]) => value !== '')
        .map(([name, option]) => ({ name, option })),
    };
    parent.variations!.push(variation);
  }
  return { products, categories };
}
