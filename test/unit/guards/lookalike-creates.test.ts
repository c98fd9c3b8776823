import { describe, expect, it } from 'vitest';
import { type Lookalike, lookalikeText } from '../../../src/guards/lookalike-creates.js';
import { nameKey } from '../../../src/sync/unrecorded-names.js';

const lookalike = (row: number, productIds: string | string[], name = `Tea ${row}`): Lookalike => ({
  row,
  key: `shopify:tea-${row}`,
  name,
  productIds: typeof productIds === 'string' ? [productIds] : productIds,
});

describe('the reason a run is held for creates that look like products it has no record of', () => {
  it('names one row and its product', () => {
    expect(lookalikeText([lookalike(12, '345', 'Café crème')])).toBe(
      'row 12 (shopify:tea-12, "Café crème") looks like product 345, which has no SKU and which this tool has no ' +
        'record of (made by hand or by another app, or by this tool before its Redis record was lost): creating it ' +
        'may duplicate it (approve creates it anyway and stops asking about that product, or give that product a ' +
        "SKU, and the row the same one if it is the row's own)",
    );
  });

  it('names every product of the name a row has, the first three, and counts the rest', () => {
    expect(lookalikeText([lookalike(5, ['210', '211'], 'T-Shirt')])).toContain(
      'row 5 (shopify:tea-5, "T-Shirt") looks like products 210 and 211, which have no SKU',
    );
    const many = lookalikeText([lookalike(5, ['210', '211', '212', '213', '214'], 'T-Shirt')]);
    expect(many).toContain('looks like products 210, 211, 212 and 2 more, which have no SKU');
    expect(many).toContain(
      'creating it may duplicate them (approve creates it anyway and stops asking about those products',
    );
  });

  it('names the first three rows and their products, and counts the rest', () => {
    const text = lookalikeText([1, 2, 3, 4, 5].map((row) => lookalike(row, String(100 + row))));
    expect(text).toMatch(
      /^rows 1 \(shopify:tea-1, "Tea 1"\), 2 \(.*\), 3 \(.*\) and 2 more look like products 101, 102, 103 and 2 more, which have no SKU .*: creating them may duplicate them \(approve creates them anyway and stops asking about those products, or give those products a SKU, and a row the same one if one is that row's own\)$/,
    );
  });

  it('two rows of one name look like one product', () => {
    expect(lookalikeText([lookalike(1, '7', 'Mug'), lookalike(2, '7', 'Mug')])).toContain(
      'look like product 7, which has no SKU',
    );
  });

  it('none: no reason', () => {
    expect(lookalikeText([])).toBeNull();
  });

  it('compares names trimmed, in one Unicode form; a blank name is none', () => {
    expect(nameKey('  Cafe\u0301 crème ')).toBe(nameKey('Café crème'));
    expect(nameKey('   ')).toBeNull();
    expect(nameKey(12)).toBeNull();
  });

  it('compares names as marketplaces keep them: runs of whitespace as one space, any case, compatibility forms', () => {
    // A marketplace that collapses the spaces of `Clay  Mug   Blue` lists `Clay Mug Blue`.
    expect(nameKey('Clay  Mug \t Blue')).toBe(nameKey('Clay Mug Blue'));
    expect(nameKey('Clay\u00a0Mug\nBlue')).toBe(nameKey('Clay Mug Blue'));
    expect(nameKey('CLAY mug Blue')).toBe(nameKey('Clay Mug Blue'));
    expect(nameKey('Ｃｌａｙ Ｍｕｇ')).toBe(nameKey('Clay Mug'));
    expect(nameKey('Clay Mug Red')).not.toBe(nameKey('Clay Mug Blue'));
  });
});
