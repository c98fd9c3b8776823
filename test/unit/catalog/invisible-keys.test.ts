import { describe, expect, it } from 'vitest';
import { isBlankRecord } from '../../../src/catalog/blank-record.js';
import { parseMapping } from '../../../src/catalog/mapping-file.js';
import { mapRows } from './map-rows.js';

// Characters that take no room on screen (format characters): a cell of only these looks empty to
// the seller, and a key with one at its edge looks like the key without it.
const INVISIBLE = {
  'a zero-width space': '\u200b',
  'a zero-width non-joiner': '\u200c',
  'a zero-width joiner': '\u200d',
  'a word joiner': '\u2060',
  'a byte order mark': '\ufeff',
  'a soft hyphen': '\u00ad',
  'a left-to-right mark': '\u200e',
};
const EACH = Object.entries(INVISIBLE);
const BLANK = 'blank row: every cell is empty';

describe('a cell of invisible format characters only', () => {
  it.each(EACH)('is blank for the blank-row check: %s', (_, char) => {
    expect(isBlankRecord({ row: 1, line: 2, values: { sku: char, name: ` ${char}\u00a0`, price: '' } })).toBe(
      true,
    );
  });

  it('leaves a row with any visible text not blank', () => {
    expect(isBlankRecord({ row: 1, line: 2, values: { sku: '\u200b', name: '\u200bMug' } })).toBe(false);
    expect(isBlankRecord({ row: 1, line: 2, values: { sku: 'é' } })).toBe(false);
  });

  it.each(EACH)('makes a row of it alone (`\\u200b,,,`) a blank row, skipped: %s', async (_, char) => {
    const rows = await mapRows(['sku', 'name', 'price'], [[char, '', '']]);
    expect(rows).toEqual([{ kind: 'skipped', row: 1, line: 2, reason: BLANK }]);
  });

  it('in the key cell of a row with other cells filled is no key: missing sku', async () => {
    const rows = await mapRows(['sku', 'name', 'price'], [['\u200b\u2060', 'Mug', '5']]);
    expect(rows).toEqual([{ kind: 'invalid', row: 1, line: 2, reason: 'missing sku' }]);
  });

  it('in the key cell is no key whatever the key field (--match-by)', async () => {
    const rows = await mapRows(['sku', 'barcode', 'price'], [['A-1', '\u200d', '5']], { matchBy: 'barcode' });
    expect(rows).toEqual([{ kind: 'invalid', row: 1, line: 2, reason: 'missing barcode' }]);
  });
});

describe('a key with an invisible character at its start or end', () => {
  it.each([
    ['\u200bSKU-1', 'sku "\\u200bSKU-1" starts with an invisible character (U+200B zero width space)'],
    ['SKU-1\u2060', 'sku "SKU-1\\u2060" ends with an invisible character (U+2060 word joiner)'],
    ['\u00adSKU-1', 'sku "\\u00adSKU-1" starts with an invisible character (U+00AD soft hyphen)'],
    ['SKU-1\u200e', 'sku "SKU-1\\u200e" ends with an invisible character (U+200E left-to-right mark)'],
    // String.prototype.trim strips a byte order mark: it was sent as Z4, unsaid.
    ['\ufeffZ4', 'sku "\\ufeffZ4" starts with an invisible character (U+FEFF byte order mark)'],
    ['Z5\ufeff', 'sku "Z5\\ufeff" ends with an invisible character (U+FEFF byte order mark)'],
    [' \ufeffZ6 ', 'sku "\\ufeffZ6" starts with an invisible character (U+FEFF byte order mark)'],
  ])(
    'is refused in one line naming the character (%j), as a key the tool cannot trust',
    async (key, says) => {
      const rows = await mapRows(['sku', 'name', 'price'], [[key, 'Mug', '5']]);
      expect(rows).toEqual([
        {
          kind: 'invalid',
          row: 1,
          line: 2,
          key: key.replace(/^ | $/g, ''),
          keyUntrusted: true,
          reason: `${says}: it is not the key it looks like; remove the character from the cell (the product made under it is found then, and its sku cleaned)`,
        },
      ]);
    },
  );

  it('never duplicates the clean key: a row with it and one with the clean key are one refused, one sent', async () => {
    const rows = await mapRows(
      ['sku', 'name', 'price'],
      [
        ['SKU-1', 'Mug', '5'],
        ['\u200bSKU-1', 'Mug', '5'],
      ],
    );
    expect(rows.map((row) => row.kind)).toEqual(['upsert', 'invalid']);
  });

  it.each([
    [
      'a Shopify export',
      ['Handle', 'Title', 'Variant SKU', 'Variant Price'],
      ['mug', 'Mug', '\ufeffM-1', '5'],
      {},
    ],
    [
      'a mapping file',
      ['Art', 'Name', 'Price'],
      ['\ufeffM-1', 'Mug', '5'],
      {
        mapping: parseMapping(
          'preset: generic\nfields:\n  sku: Art\n  name: Name\n  price: Price\n',
          'm.yml',
          'yaml',
        ),
      },
    ],
  ])('is a byte order mark refused in %s too', async (_, columns, cells, options) => {
    const rows = await mapRows(columns, [cells], options);
    expect(rows[0]).toMatchObject({
      kind: 'invalid',
      reason: expect.stringMatching(
        /^sku "\\ufeffM-1" starts with an invisible character \(U\+FEFF byte order mark\)/,
      ),
    });
  });

  it('leaves one inside a key alone (a joiner is part of some scripts’ words)', async () => {
    const key = 'می\u200cخواهم-1';
    const rows = await mapRows(['sku', 'name', 'price'], [[key, 'Mug', '5']]);
    expect(rows[0]).toMatchObject({ kind: 'upsert', key });
  });
});
