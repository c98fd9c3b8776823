import { describe, expect, it } from 'vitest';
import { misspeltColumns, misspeltLine } from '../../../src/catalog/misspelt-columns.js';
import type { Lookup } from '../../../src/catalog/presets/asked-columns.js';

/** A few of the Shopify preset's lookups, as it makes them (normalised names, a pattern). */
const READS: Lookup[] = [
  ['handle'],
  ['variant price'],
  ['variant inventory qty'],
  ['variant compare at price'],
  ['body (html)', 'body html'],
  ['option1 value'],
  ['option2 value'],
  ['option3 value'],
  ['sku'],
  [/^image \d+$/],
];

// A mistyped header cell under a platform preset was never read and nothing said so: `Variant
// Inventory Qtty` left a marketplace selling 20 that the file had set to 0.
describe('a header cell one typo from a column the preset reads that the file lacks', () => {
  it.each([
    ['Variant Inventory Qtty', 'Variant Inventory Qty'],
    ['Variant Compare-At Price', 'Variant Compare At Price'],
    ['variant pirce', 'variant price'],
    ['Handel', 'Handle'],
    ['HANDEL', 'HANDLE'],
    ['Body (HTM)', 'Body (HTML)'],
    ['skuu', 'sku'],
  ])('%s is near %s, spelt in its own case', (column, near) => {
    expect(misspeltColumns(['Title', column], READS)).toEqual([{ column, near }]);
  });

  it('is let be where the header has the column it is near: a column of its own beside it', () => {
    expect(misspeltColumns(['Variant Inventory Qty', 'Variant Inventory Qtty'], READS)).toEqual([]);
    // Any of a lookup's names found: `Body (HTML)` is read, `Body HTM` is no typo of a missing one.
    expect(misspeltColumns(['Body (HTML)', 'Body HTM'], READS)).toEqual([]);
  });

  it('is let be where it is near nothing the preset reads, or further than one typo', () => {
    expect(misspeltColumns(['SEO Title', 'Variant Inventory Quantity', 'Gift Card'], READS)).toEqual([]);
    // Under five letters only a letter typed twice or two neighbours swapped count (oneTypoFrom).
    expect(misspeltColumns(['sky', 'su'], READS)).toEqual([]);
  });

  it('is let be where it differs by a number only: another option, another image', () => {
    expect(misspeltColumns(['Option4 Value', 'Handle2'], READS)).toEqual([]);
  });

  it('a column a pattern reads is read, whatever it is near', () => {
    expect(misspeltColumns(['image 1'], [['image'], [/^image \d+$/]])).toEqual([]);
  });

  it('looks only at the lookups wanted (a signature’s required columns), the others deciding what is read', () => {
    expect(misspeltColumns(['Variant Pirce', 'Handel'], READS, [['variant price']])).toEqual([
      { column: 'Variant Pirce', near: 'Variant Price' },
    ]);
  });

  it('says each in one line, with how to fix it', () => {
    expect(
      misspeltLine('shopify', [{ column: 'Variant Inventory Qtty', near: 'Variant Inventory Qty' }]),
    ).toBe(
      'preset shopify: a column not read, one typo from a column it reads that this file lacks: "Variant Inventory Qtty" (near "Variant Inventory Qty"): rename it "Variant Inventory Qty"',
    );
    expect(
      misspeltLine('woocommerce', [
        { column: 'Stok', near: 'Stock' },
        { column: 'Sale prise', near: 'Sale price' },
      ]),
    ).toBe(
      'preset woocommerce: columns not read, each one typo from a column it reads that this file lacks: "Stok" (near "Stock"), "Sale prise" (near "Sale price"): rename each to the column it is near',
    );
  });
});
