import { describe, expect, it } from 'vitest';
import type { CatalogRow } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { requestCounts, usePipeline } from '../support/pipeline.js';

const COLUMNS = [
  'ID',
  'Type',
  'SKU',
  'Name',
  'Published',
  'Is featured?',
  'Visibility in catalog',
  'Regular price',
  'Sale price',
  'Stock',
  'Parent',
];

/** A simple WooCommerce product without a SKU: its key is derived from its ID (`woocommerce:id:<ID>`). */
function simple(id: number, name: string, price: number): CatalogRow {
  return {
    ID: String(id),
    Type: 'simple',
    SKU: '',
    Name: name,
    Published: '1',
    'Is featured?': '0',
    'Visibility in catalog': 'visible',
    'Regular price': String(price),
    'Sale price': '',
    Stock: '5',
    Parent: '',
  } as never;
}

const FIRST = [
  simple(101, 'T-Shirt', 10),
  simple(102, 'T-Shirt', 12),
  simple(103, 't-shirt ', 14),
  simple(104, 'Mug', 4),
];

/**
 * A seller migrating onto an account with products made by hand, without a SKU, named as some rows
 * (docs/sources.md): the first run is held for them (the look-alike guard), and once the seller has
 * approved past those products they are not asked about again. A product made by hand later, of the
 * same name, still holds the run that would create its look-alike.
 */
describe('look-alikes the seller approved past', () => {
  const pipeline = usePipeline();

  it('holds once for products made by hand; after approve, later nights run; a new look-alike still holds', async () => {
    const [shirtA, shirtB] = pipeline.sandbox.seedProducts('seller-main', [
      { name: 'T-Shirt', price: 9 },
      { name: 'T-Shirt', price: 9 },
    ]);

    // Night 1: held for both products named T-Shirt (not only the first listed).
    const held = await pipeline.cli(['run', await pipeline.csv('woo.csv', FIRST, COLUMNS)]);
    expect(held.code, held.stdout + held.stderr).toBe(5);
    expect(held.stdout).toContain(`look like products ${shirtA} and ${shirtB}, which have no SKU`);
    expect(held.stdout).toContain(
      '(made by hand or by another app, or by this tool before its Redis record was lost)',
    );
    expect(held.stdout).not.toContain('(its Redis record lost?)');
    const approved = await pipeline.cli(['approve', runIdOf(held.stdout)]);
    expect(approved.code, approved.stdout + approved.stderr).toBe(0);
    expect(pipeline.products()).toHaveLength(6);

    // Night 2: nothing new.
    const clean = await pipeline.cli(['run', await pipeline.csv('woo2.csv', FIRST, COLUMNS)]);
    expect(clean.code, clean.stdout + clean.stderr).toBe(0);

    // Night 3: a new row named T-Shirt, and Mug's price changed: not held again for those products.
    const third = [...FIRST.slice(0, 3), simple(104, 'Mug', 5), simple(105, 'T-Shirt', 16)];
    pipeline.sandbox.resetStats();
    const night3 = await pipeline.cli([
      'run',
      await pipeline.csv('woo3.csv', third, COLUMNS),
      '--missing',
      'quantity=0',
    ]);
    expect(night3.code, night3.stdout + night3.stderr).toBe(0);
    expect(night3.stdout).not.toContain('held');
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 1, updates: 1 });
    expect(pipeline.products().find((p) => p.name === 'Mug')).toMatchObject({ price: 5 });

    // Night 4: another product made by hand named T-Shirt, and another row of that name: held, for it alone.
    const [shirtC] = pipeline.sandbox.seedProducts('seller-main', [{ name: 'T-SHIRT', price: 9 }]);
    pipeline.sandbox.resetStats();
    const fourth = [...third, simple(106, 'T-Shirt', 18)];
    const night4 = await pipeline.cli(['run', await pipeline.csv('woo4.csv', fourth, COLUMNS)]);
    expect(night4.code, night4.stdout + night4.stderr).toBe(5);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
    expect(night4.stdout).toContain(
      `row 6 (woocommerce:id:106, "T-Shirt") looks like product ${shirtC}, which has no SKU`,
    );
  });
});
