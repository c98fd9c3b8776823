import { expect } from 'vitest';
import { type CatalogRow, priceNumber } from '../../support/catalog.js';
import { bySku } from '../../support/pipeline.js';

/**
 * The seller holds exactly the source: one product per row (no duplicate sku, nothing extra),
 * each with the row's fields, prices as JSON numbers.
 */
export function expectExactCatalog(products: Array<Record<string, unknown>>, rows: CatalogRow[]): void {
  const skus = products.map((product) => String(product.sku));
  const duplicates = skus.filter((sku, i) => skus.indexOf(sku) !== i);
  expect(duplicates, 'skus created more than once').toEqual([]);
  expect(products).toHaveLength(rows.length);
  const stored = bySku(products);
  for (const row of rows) {
    expect(stored.get(row.sku), `product of ${row.sku}`).toEqual({
      sku: row.sku,
      name: row.name,
      price: priceNumber(row.price),
    });
  }
}
