import { describe, expect, it } from 'vitest';
import {
  type IdRowFacts,
  idRowRefusal,
  keyInEntry,
  type ResolvedRow,
  rewrittenRefusal,
  sharedProductRefusals,
} from '../../../src/sync/row-refusals.js';

function row(over: Partial<ResolvedRow> & Pick<ResolvedRow, 'row' | 'key'>): ResolvedRow {
  return { id: null, byIndexedKey: false, createdByThisRun: false, shownKey: null, ...over };
}

function facts(over: Partial<IdRowFacts>): IdRowFacts {
  return {
    current: null,
    other: null,
    indexed: true,
    currentInSource: false,
    where: 'on the marketplace',
    ...over,
  };
}

describe('a row whose id column names a product', () => {
  // An ERP export's own ID column (1) beside SKU B: product 1 is A on the marketplace, B is product 2.
  const erp = row({ row: 1, key: 'B', idColumn: '1', id: '1' });

  it('is refused when another product has its SKU: it would be a second product with that SKU', () => {
    expect(idRowRefusal(erp, facts({ current: 'A', other: '2' }), 'sku')).toBe(
      `id 1 is product "A" on the marketplace, and sku B is product 2: the id column may not be the marketplace's ids`,
    );
  });

  it('is refused when another product has its SKU and the id names no product', () => {
    const ghost = row({ row: 1, key: 'B', idColumn: '99', id: '99' });
    expect(idRowRefusal(ghost, facts({ other: '2', indexed: false }), 'sku')).toBe(
      `id 99 is no product on the marketplace, and sku B is product 2: the id column may not be the marketplace's ids`,
    );
    expect(idRowRefusal(ghost, facts({ other: '2', indexed: true }), 'sku')).toMatch(
      /^id 99 is a product whose sku is not known, and sku B is product 2: /,
    );
  });

  it('renames the SKU when no other product has it', () => {
    const rename = row({ row: 1, key: 'Z', idColumn: '1', id: '1' });
    expect(idRowRefusal(rename, facts({ current: 'A' }), 'sku')).toBeNull();
    // The key's product is the named one itself.
    expect(idRowRefusal(rename, facts({ current: 'A', other: '1' }), 'sku')).toBeNull();
  });

  it('is written when the product has its SKU already, whatever else has it too', () => {
    expect(
      idRowRefusal(
        row({ row: 1, key: 'A', idColumn: '1', id: '1' }),
        facts({ current: 'A', other: '2' }),
        'sku',
      ),
    ).toBeNull();
    // The same SKU in the other Unicode form is the same SKU.
    const nfd = 'CRÈME'.normalize('NFD');
    expect(
      idRowRefusal(
        row({ row: 1, key: nfd, idColumn: '1', id: '1' }),
        facts({ current: 'CRÈME', other: '2' }),
        'sku',
      ),
    ).toBeNull();
  });

  it('is refused when it renames a product whose present SKU another row of the source writes', () => {
    const rename = row({ row: 1, key: 'Z', idColumn: '1', id: '1' });
    expect(idRowRefusal(rename, facts({ current: 'A', currentInSource: true }), 'sku')).toBe(
      'id 1 is product "A" on the marketplace, and the source has a row with sku A too: two rows may not write one product',
    );
  });

  it('says where an --incremental run knows the product from', () => {
    expect(
      idRowRefusal(erp, facts({ current: 'A', other: '2', where: "in this tool's record" }), 'sku'),
    ).toMatch(/^id 1 is product "A" in this tool's record, and sku B is product 2: /);
  });
});

describe('a row found under its own key', () => {
  const found = row({ row: 5, key: 'A', id: '1', byIndexedKey: true });

  it('is refused when this run gave its product another key since', () => {
    expect(rewrittenRefusal({ ...found, shownKey: 'Z' }, 'sku')).toBe(
      'product 1 has sku Z now, written by another row of this run: two rows may not write one product',
    );
  });

  it('is written when the product still shows its key, or shows none', () => {
    expect(rewrittenRefusal({ ...found, shownKey: 'A' }, 'sku')).toBeNull();
    expect(rewrittenRefusal({ ...found, shownKey: null }, 'sku')).toBeNull();
  });

  it('is written when this run created the product (the API may show the key in a form of its own)', () => {
    expect(rewrittenRefusal({ ...found, shownKey: 'a', createdByThisRun: true }, 'sku')).toBeNull();
  });

  it('is not judged so when found through the id map (a SKU changed on the marketplace is put back)', () => {
    expect(rewrittenRefusal({ ...found, byIndexedKey: false, shownKey: 'Q' }, 'sku')).toBeNull();
  });
});

describe('rows of a chunk resolved to one product', () => {
  it('leave it to the first row of the source and refuse the others, naming it', () => {
    const refused = sharedProductRefusals([
      row({ row: 9, key: 'A', id: '1' }),
      row({ row: 3, key: 'Z', idColumn: '1', id: '1' }),
      row({ row: 4, key: 'B', id: '2' }),
      row({ row: 5, key: 'N' }),
      row({ row: 6, key: 'M' }),
    ]);
    expect([...refused]).toEqual([[9, "product 1 is row 3's too: two rows may not write one product"]]);
  });
});

describe('the key an index entry shows', () => {
  it('reads it as the list read does, and not from a digest', () => {
    expect(keyInEntry({ sku: ' A-1 ' }, 'sku')).toBe('A-1');
    expect(keyInEntry({ sku: 400 }, 'sku')).toBe('400');
    expect(keyInEntry({ sku: '' }, 'sku')).toBeNull();
    expect(keyInEntry({ name: 'Mug' }, 'sku')).toBeNull();
    expect(keyInEntry({ sku: `#sha1:${'x'.repeat(27)}` }, 'sku')).toBeNull();
    expect(keyInEntry(undefined, 'sku')).toBeNull();
  });
});
