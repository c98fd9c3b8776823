import { describe, expect, it } from 'vitest';
import { sourceCell } from '../../../src/sources/csv-header.js';
import { readCsvText } from './helpers.js';

// ERP and Excel exports write a text cell as the formula `="00123"` so that Excel keeps its leading
// zeros. Read as it stands, the SKU `="00123"` never matched the seller's `00123`.
describe('a CSV cell written as Excel text (`="…"`)', () => {
  it.each([
    ['a wrapped SKU', '="00123"', '00123'],
    ['a wrapped barcode', '="4006381333931"', '4006381333931'],
    ['a doubled quote inside, as Excel writes one', '="say ""hi"""', 'say "hi"'],
    ['empty text', '=""', ''],
    ['text with a separator', '="a,b"', 'a,b'],
  ])('reads %s as its text', (_, cell, text) => {
    expect(sourceCell(cell)).toBe(text);
  });

  it.each([
    ['another formula', '=A1'],
    ['two strings joined', '="a"&"b"'],
    ['a lone quote inside', '="a"b"'],
    ['text before it', ' ="00123"'],
    ['text after it', '="00123" '],
    ['no closing quote', '="00123'],
    ['the wrapper alone', '="'],
  ])('leaves %s as written', (_, cell) => {
    expect(sourceCell(cell)).toBe(cell);
  });

  it('leaves a guarded cell this tool wrote (`\'="x"`) as the value it stands for: `="x"`', () => {
    expect(sourceCell(`'="x"`)).toBe('="x"');
  });

  it('reads every column so, quoted by the CSV or not, and the header too', async () => {
    const csv = 'sku,name,price,="ean"\n"=""00123""",a,1.00,="4006381333931"\n';
    const { opened, records } = await readCsvText(csv);
    expect(opened.columns).toEqual(['sku', 'name', 'price', 'ean']);
    expect(records.map((record) => record.values)).toEqual([
      { sku: '00123', name: 'a', price: '1.00', ean: '4006381333931' },
    ]);
  });

  it('keeps each such cell as written beside its text, for a key an earlier version read so', async () => {
    const csv = 'sku,name,ean\n"=""00123""",a,="4006381333931"\nPLAIN,="=A1",=A1\n';
    const { records } = await readCsvText(csv);
    expect(records.map((record) => record.excelText)).toEqual([
      [
        { text: '00123', cell: '="00123"' },
        { text: '4006381333931', cell: '="4006381333931"' },
      ],
      // `="=A1"` is text (`=A1`); `=A1` itself is a formula, read as written.
      [{ text: '=A1', cell: '="=A1"' }],
    ]);
  });

  it('adds nothing to a record without such a cell', async () => {
    const { records } = await readCsvText("sku,name\n00123,a\n'=x,=A1\n");
    expect(records.map((record) => 'excelText' in record)).toEqual([false, false]);
  });

  it('reads a JSON value as it is: its strings are typed, not spreadsheet cells', async () => {
    const { records } = await readCsvText('[{"sku": "=\\"00123\\"", "name": "a"}]', { format: 'json' });
    expect(records.map((record) => record.values)).toEqual([{ sku: '="00123"', name: 'a' }]);
  });
});
