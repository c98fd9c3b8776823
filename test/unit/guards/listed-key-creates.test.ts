import { describe, expect, it } from 'vitest';
import { type ListedKeyCreate, listedKeyText } from '../../../src/guards/listed-key-creates.js';
import { lookalikeText } from '../../../src/guards/lookalike-creates.js';
import { listedKeyFields, listedKeyOf } from '../../../src/sync/listed-keys.js';

const create = (row: number, field = 'sku', value = `V${row}`): ListedKeyCreate => ({
  row,
  key: `400${row}`,
  matchBy: 'barcode',
  productId: String(100 + row),
  field,
  value,
});

describe('the fields a run matched by another field checks its creates against', () => {
  it('none for a run matched by sku: its list read keeps nothing more, its chunks ask nothing', () => {
    expect(
      listedKeyFields({ matchBy: 'sku', sentFields: ['sku', 'barcode'], matchColumnNames: ['EAN'] }),
    ).toEqual([]);
  });

  it('sku when the rows send it, and the match column’s own names', () => {
    expect(listedKeyFields({ matchBy: 'barcode', sentFields: ['sku', 'barcode'] })).toEqual(['sku']);
    expect(
      listedKeyFields({ matchBy: 'barcode', sentFields: ['barcode'], matchColumnNames: ['EAN', 'ean'] }),
    ).toEqual(['EAN', 'ean']);
    // `--fields` without sku: a create gives the product no SKU, so none to compare.
    expect(listedKeyFields({ matchBy: 'barcode', sentFields: ['name', 'barcode'] })).toEqual([]);
  });

  it('keeps a field and its value apart in the hash field', () => {
    expect(listedKeyOf('a:b', 'c')).not.toBe(listedKeyOf('a', 'b:c'));
  });
});

describe('the reason a run is held for creates of a value a listed product has', () => {
  it('names the row, its key, the product and its field', () => {
    expect(listedKeyText([create(1)])).toBe(
      'row 1 (barcode 4001) would create a product, but product 101 has its sku V1: creating it may duplicate that product (approve creates it anyway)',
    );
  });

  it('names the first three rows and counts the rest', () => {
    expect(listedKeyText([1, 2, 3, 4, 5].map((row) => create(row)))).toBe(
      'rows 1 (barcode 4001; product 101 has its sku V1), 2 (barcode 4002; product 102 has its sku V2), ' +
        '3 (barcode 4003; product 103 has its sku V3) and 2 more would create products: creating them may ' +
        'duplicate those products (approve creates them anyway)',
    );
  });

  it('says a value under the match column’s own name is an earlier --match-by’s, with the mapping file that matches', () => {
    const byEan = (row: number) => ({ ...create(row, 'ean', `400${row}`), column: 'EAN' });
    expect(listedKeyText([byEan(1)])).toBe(
      'row 1 (barcode 4001) would create a product, but product 101 has its ean 4001: ean is a text field of ' +
        'that product, as --match-by ean made products before this version read the EAN column as barcode; ' +
        'to match by it, run with --mapping FILE, FILE holding {preset: generic, fields: {ean: {column: EAN, ' +
        'custom: true}}, matchBy: ean} (approve would create that product a second time)',
    );
    // Beside creates held for a listed SKU, each said as before; a run held before `column` was kept
    // names the field for it.
    const { column: _, ...older } = byEan(3);
    expect(listedKeyText([create(1), create(2), older])).toBe(
      'rows 1 (barcode 4001; product 101 has its sku V1) and 2 (barcode 4002; product 102 has its sku V2) ' +
        'would create products: creating them may duplicate those products (approve creates them anyway); ' +
        'row 3 (barcode 4003) would create a product, but product 103 has its ean 4003: ean is a text field ' +
        'of that product, as --match-by ean made products before this version read the ean column as barcode; ' +
        'to match by it, run with --mapping FILE, FILE holding {preset: generic, fields: {ean: {column: ean, ' +
        'custom: true}}, matchBy: ean} (approve would create that product a second time)',
    );
  });

  it('is one of the held reasons beside the lookalikes by name; none: no reason', () => {
    const byName = { row: 7, key: 'shopify:tea', name: 'Tea', productIds: ['9'] };
    expect(lookalikeText([create(1, 'ean', '4001'), byName])).toMatch(
      /^row 1 \(barcode 4001\) would create a product, but product 101 has its ean 4001: .*; row 7 \(shopify:tea, "Tea"\) looks like product 9/,
    );
    expect(listedKeyText([])).toBeNull();
    expect(lookalikeText([])).toBeNull();
  });
});
