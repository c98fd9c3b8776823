import { describe, expect, it } from 'vitest';
import { isBlankRecord } from '../../../src/catalog/blank-record.js';
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
  ])(
    'is refused in one line naming the character (%j), as a key the tool cannot trust',
    async (key, says) => {
      const rows = await mapRows(['sku', 'name', 'price'], [[key, 'Mug', '5']]);
      expect(rows).toEqual([
        {
          kind: 'invalid',
          row: 1,
          line: 2,
          key,
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

  it('leaves one inside a key alone (a joiner is part of some scripts’ words)', async () => {
    const key = 'می\u200cخواهم-1';
    const rows = await mapRows(['sku', 'name', 'price'], [[key, 'Mug', '5']]);
    expect(rows[0]).toMatchObject({ kind: 'upsert', key });
  });
});
