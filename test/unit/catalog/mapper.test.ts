import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CatalogConfigError, createMapper, type MapperOptions } from '../../../src/catalog/index.js';
import { parseMapping } from '../../../src/catalog/mapping-file.js';
import { SAMPLE_RECORDS } from '../../../src/defaults.js';
import type { MappedRow, SourceRecord } from '../../../src/interfaces.js';
import { projectRoot } from '../../../src/project-root.js';
import { openSource } from '../../../src/sources/index.js';
import { stdinOf } from '../sources/helpers.js';
import { iterate, mapRecords, mapRows, records } from './map-rows.js';

describe('the generic preset', () => {
  it('sends each column as the field of the same name, with kinds from the field table', async () => {
    const rows = await mapRows(
      ['sku', 'name', 'price', 'quantity', 'images', 'color'],
      [['A-1', 'Mug', '12.50', '3', 'a.jpg,b.jpg', 'red']],
    );
    expect(rows).toEqual([
      {
        kind: 'upsert',
        row: 1,
        line: 2,
        key: 'A-1',
        fields: {
          sku: 'A-1',
          name: 'Mug',
          price: 12.5,
          quantity: 3,
          images: ['a.jpg', 'b.jpg'],
          color: 'red',
        },
      },
    ]);
  });

  it("sends columns named as Object's own methods (valueOf, constructor) as fields like any other", async () => {
    // Found by test/hostile/fuzz.property.test.ts: a column `valueOf` threw a TypeError mid-run.
    const [row] = await mapRows(
      ['sku', 'valueOf', 'constructor', 'toString', 'hasOwnProperty'],
      [['A-1', '0x10', 'oak', 'x', 'y']],
    );
    expect(row).toMatchObject({
      kind: 'upsert',
      key: 'A-1',
      fields: { sku: 'A-1', valueOf: '0x10', constructor: 'oak', toString: 'x', hasOwnProperty: 'y' },
    });
  });

  it('refuses a column named __proto__ before any row, saying how to read it instead', async () => {
    // Sent as a field of that name it would be dropped here (assigning it sets a prototype) and read
    // by many servers as an attempt to set theirs.
    const refused =
      'the source has a column named __proto__, which the generic preset would send as a product field of that name: rename it, or read it into another field with --mapping';
    expect(() => createMapper({ columns: ['sku', '__proto__'] })).toThrow(refused);
    expect(() => createMapper({ columns: ['sku', '__proto__'] })).toThrow(CatalogConfigError);
  });

  it('makes a JSON item that brings a __proto__ key after the sample an invalid row, never a dropped value', async () => {
    const items = [
      { row: 1, line: 1, values: { sku: 'A-1', name: 'Mug' } },
      { row: 2, line: 2, values: JSON.parse('{"sku": "A-2", "__proto__": "x"}') as Record<string, string> },
    ];
    const rows = await mapRecords(['sku', 'name'], items, { openColumns: true, sample: items.slice(0, 1) });
    expect(rows.map((row) => row.kind)).toEqual(['upsert', 'invalid']);
    expect(rows[1]).toMatchObject({
      kind: 'invalid',
      row: 2,
      reason: expect.stringMatching(/^item 2 has a column named __proto__/),
    });
  });

  it('reads a column named as a product field in another case as that field, and says so', async () => {
    // A spreadsheet's usual header: sent as written, `Price` was a text field and the price was never set.
    const columns = ['SKU', 'Name', 'Price', 'Quantity', 'Color', 'ID'];
    const mapper = createMapper({ columns });
    expect(mapper.matchBy).toBe('sku');
    expect(mapper.detections).toContain(
      'columns read as product fields: SKU as sku, Name as name, Price as price, Quantity as quantity, ID as id',
    );
    const [row] = await mapRows(columns, [['A-1', 'Mug', '12.50', '3', 'red', '77']]);
    expect(row).toEqual({
      kind: 'upsert',
      row: 1,
      line: 2,
      key: 'A-1',
      id: '77',
      fields: { sku: 'A-1', name: 'Mug', price: 12.5, quantity: 3, Color: 'red' },
    });
  });

  it("reads another platform's word for a field by the field's own rules, and says so", async () => {
    const columns = ['sku', 'Title', 'price', 'stock', 'ean', 'tag', 'enabled'];
    expect(createMapper({ columns }).detections).toContain(
      'columns read as product fields: Title as name, stock as quantity, ean as barcode, tag as tags, enabled as active',
    );
    const rows = await mapRows(columns, [
      ['A-1', 'Mug', '5', '3', '4006381333931', 'kitchen, gift', 'yes'],
      // Each value the field refuses makes the row invalid, named by the field it is read as.
      ['A-2', 'Cup', '5', 'lots', '', '', ''],
      ['A-3', 'Jug', '5', '2.5', '', '', 'maybe'],
      ['A-4', 'Pot', '5', '-2', '4.00638E+12', '', ''],
    ]);
    expect(rows).toEqual([
      {
        kind: 'upsert',
        row: 1,
        line: 2,
        key: 'A-1',
        fields: {
          sku: 'A-1',
          name: 'Mug',
          price: 5,
          quantity: 3,
          barcode: '4006381333931',
          tags: ['kitchen', 'gift'],
          active: true,
        },
      },
      { kind: 'invalid', row: 2, line: 3, key: 'A-2', reason: 'invalid quantity "lots"' },
      {
        kind: 'invalid',
        row: 3,
        line: 4,
        key: 'A-3',
        reason: 'invalid quantity "2.5": not a whole number; invalid active "maybe"',
      },
      expect.objectContaining({
        kind: 'upsert',
        fields: { sku: 'A-4', name: 'Pot', price: 5, quantity: 0 },
        notes: [
          'quantity -2 (sold beyond stock): sent as 0',
          'barcode "4.00638E+12" was mangled by a spreadsheet (scientific notation): not sent',
        ],
      }),
    ]);
  });

  it.each([
    [['ean', 'stock'], 'ean', 'ean'],
    [['EAN', 'Stock'], 'ean', 'EAN'],
    [['EAN', 'Stock'], 'EAN', 'EAN'],
  ])(
    '%j with --match-by %s matches by barcode, as every run reads the column, and says so',
    async (columns, asked, column) => {
      // Read as `ean` for --match-by alone, the products a run without it made (barcode) were not found.
      const mapper = createMapper({ columns, matchBy: asked });
      expect(mapper.matchBy).toBe('barcode');
      expect(mapper.detections).toContain(
        `--match-by ${asked}: this source's ${column} column is read as barcode: matched by barcode`,
      );
      expect(mapper.matchColumnNames).toEqual(column === 'ean' ? ['ean'] : ['EAN', 'ean']);
      const [row] = await mapRows(columns, [['4006381333931', '3']], { matchBy: asked });
      expect(row).toMatchObject({
        kind: 'upsert',
        key: '4006381333931',
        fields: { barcode: '4006381333931', quantity: 3 },
      });
      expect(row).not.toHaveProperty('fields.ean');
    },
  );

  it('matches by a text field ean a mapping file reads the column as (docs/sources.md)', () => {
    const mapping = parseMapping(
      'preset: generic\nmatchBy: ean\nfields:\n  ean: {column: EAN, custom: true}\n',
      'ean.yml',
      'yaml',
    );
    const mapper = createMapper({ columns: ['EAN', 'Title', 'Price'], mapping });
    expect(mapper.matchBy).toBe('ean');
    expect(mapper.matchColumnNames).toEqual([]);
  });

  it('matches by a column named as --match-by in another case as the field it is read as (SKU as sku)', async () => {
    const mapper = createMapper({ columns: ['SKU', 'Name', 'Price', 'Stock'], matchBy: 'SKU' });
    expect(mapper.matchBy).toBe('sku');
    expect(mapper.matchColumnNames).toEqual([]);
    expect(mapper.detections.some((line) => line.startsWith('--match-by'))).toBe(false);
    const [row] = await mapRows(['SKU', 'Name'], [['U1', 'a']], { matchBy: 'SKU' });
    expect(row).toMatchObject({ kind: 'upsert', key: 'U1', fields: { sku: 'U1', name: 'a' } });
    expect(row).not.toHaveProperty('fields.SKU');
    // A column sent under its own name is matched by that name, as every run sends it.
    expect(createMapper({ columns: ['sku', 'Color'], matchBy: 'color' }).matchBy).toBe('Color');
    // A preset's field in another case is that field.
    expect(createMapper({ columns: ['sku', 'name'], matchBy: 'SKU', preset: 'generic' }).matchBy).toBe('sku');
  });

  it('knows the columns it reads as another field, and refuses --fields naming one by its own name', () => {
    expect(createMapper({ columns: ['sku', 'Price', 'stock'] }).readAs).toEqual(
      new Map([
        ['Price', 'price'],
        ['stock', 'quantity'],
      ]),
    );
    expect(createMapper({ columns: ['sku', 'price'] }).readAs).toEqual(new Map());
    // Not `this source gives no such field; the stock field is quantity`: the source has a stock column.
    expect(() => createMapper({ columns: ['sku', 'stock'], fields: ['sku', 'stock'] })).toThrow(
      new CatalogConfigError(
        "--fields: stock: this source's stock column is read as quantity: name quantity",
      ),
    );
  });

  it('names --fields where it was written (a job file key) when refusing a name in it', () => {
    const options = { columns: ['sku', 'stock', 'price'], fieldsOption: 'fields in nightly.yml' };
    expect(() => createMapper({ ...options, fields: ['sku', 'stock'] })).toThrow(
      new CatalogConfigError(
        "fields in nightly.yml: stock: this source's stock column is read as quantity: name quantity",
      ),
    );
    expect(() => createMapper({ ...options, fields: ['sku', 'prce'] })).toThrow(
      /^fields in nightly\.yml: prce: this source gives no such field; the nearest field is price /,
    );
  });

  it('says a column near a product field once, and not where a mapping file reads the field', async () => {
    const near =
      'columns sent under their own name, near a product field: quantiy (quantity?): rename it, or read it with a mapping file (quantity: quantiy; docs/sources.md)';
    expect(createMapper({ columns: ['sku', 'quantiy'] }).detections).toContain(near);
    const mapping = parseMapping('preset: generic\nfields:\n  quantity: quantiy\n', 'm.yml', 'yaml');
    const mapper = createMapper({ columns: ['sku', 'quantiy'], mapping });
    expect(mapper.detections).not.toContain(near);
    const [row] = await mapRows(['sku', 'quantiy'], [['A-1', '3']], { mapping });
    expect(row).toMatchObject({ kind: 'upsert', fields: { sku: 'A-1', quantity: 3 } });
  });

  it('says, on a row with no name, the columns near it (a create then says why it has none)', async () => {
    const [row, named] = await mapRows(
      ['sku', 'Titel', 'Product Name', 'price'],
      [
        ['W1', 'a', 'x', '1.00'],
        ['W2', 'b', 'y', '2.00'],
      ],
    );
    expect(row).toMatchObject({
      kind: 'upsert',
      unnamed: 'no name column; near it: Titel (title → name?), Product Name (name?)',
    });
    expect(named).toMatchObject({ kind: 'upsert', key: 'W2' });
    // A name column, or none near one: no such word.
    const [plain] = await mapRows(['sku', 'name', 'Titel'], [['W1', '', 'a']]);
    expect(plain).not.toHaveProperty('unnamed');
    const [far] = await mapRows(['sku', 'Bezeichnung'], [['W1', 'a']]);
    expect(far).not.toHaveProperty('unnamed');
  });

  it('keeps a name a later JSON item brings when the first item named a field in another case', async () => {
    const items: SourceRecord[] = [
      { row: 1, line: 1, values: { SKU: 'A', Price: '5' } },
      { row: 2, line: 2, values: { SKU: 'B', Price: '6', color: 'red' } },
    ];
    const rows = await mapRecords(['SKU', 'Price'], items, { openColumns: true, sample: items });
    // Before: `color` was dropped without a word, the renaming knowing only the first item's names.
    expect(rows[1]).toMatchObject({ kind: 'upsert', fields: { sku: 'B', price: 6, color: 'red' } });
  });

  it('leaves a column as written when another column names its field exactly', async () => {
    const [row] = await mapRows(['sku', 'price', 'Price'], [['A-1', '5', 'list']]);
    expect(row).toMatchObject({ kind: 'upsert', fields: { sku: 'A-1', price: 5, Price: 'list' } });
    expect(createMapper({ columns: ['sku', 'price'] }).detections).toEqual([
      'preset generic (the columns match no known export)',
    ]);
  });

  it('takes an id column as the remote product id, not as a field', async () => {
    const [row] = await mapRows(['id', 'sku', 'price'], [['981', 'A-1', '5']]);
    expect(row).toMatchObject({ kind: 'upsert', id: '981', fields: { sku: 'A-1', price: 5 } });
    expect(row).not.toHaveProperty('fields.id');
  });
});

describe('blank cells', () => {
  it('leave the field absent ("leave as it is"), never empty', async () => {
    const [row] = await mapRows(['sku', 'name', 'price', 'brand'], [['A-1', '', '  ', 'Acme']]);
    expect(row).toMatchObject({ kind: 'upsert', fields: { sku: 'A-1', brand: 'Acme' } });
    expect(Object.keys(row!.kind === 'upsert' ? row!.fields : {})).toEqual(['sku', 'brand']);
  });
});

describe('validation', () => {
  it('makes a row without match key invalid', async () => {
    const rows = await mapRows(['sku', 'price'], [['', '5']]);
    expect(rows).toEqual([{ kind: 'invalid', row: 1, line: 2, reason: 'missing sku' }]);
  });

  it("skips a row with every cell blank (a spreadsheet's trailing `,,,`): it stands for no product", async () => {
    const rows = await mapRows(
      ['sku', 'name', 'price'],
      [
        ['', '', ''],
        [' ', '', '\t'],
        ['', 'Mug', ''],
      ],
    );
    expect(rows).toEqual([
      { kind: 'skipped', row: 1, line: 2, reason: 'blank row: every cell is empty' },
      { kind: 'skipped', row: 2, line: 3, reason: 'blank row: every cell is empty' },
      // A cell with text: the row may be a product whose key was lost, a mistake to report.
      { kind: 'invalid', row: 3, line: 4, reason: 'missing sku' },
    ]);
  });

  it('makes a price that is not a number invalid, naming it', async () => {
    const rows = await mapRows(['sku', 'price'], [['A-1', 'abc']]);
    expect(rows).toEqual([{ kind: 'invalid', row: 1, line: 2, key: 'A-1', reason: 'invalid price "abc"' }]);
  });

  it('makes the later of two rows with the same key invalid, naming the first', async () => {
    const rows = await mapRows(
      ['sku', 'price'],
      [
        ['A-1', '5'],
        ['B-2', '6'],
        ['A-1', '7'],
      ],
    );
    expect(rows[2]).toEqual({
      kind: 'invalid',
      row: 3,
      line: 4,
      key: 'A-1',
      reason: 'duplicate sku "A-1": first seen in row 1',
    });
  });

  it('makes a key saved in scientific notation by a comma-decimal spreadsheet invalid too', async () => {
    const rows = await mapRows(['sku', 'price'], [['1,23457E+11', '1']]);
    expect(rows[0]).toMatchObject({ kind: 'invalid', key: '1,23457E+11' });
  });

  it('makes a row whose key a spreadsheet turned into a number invalid, whatever field is the key', async () => {
    const rows = await mapRows(
      ['sku', 'price'],
      [
        ['1.23457E+11', '1'],
        ['1E5', '2'],
        ['00123', '3'],
        ['1.23457E+11', '4'],
      ],
    );
    const mangled =
      'sku "1.23457E+11" was turned into a number by a spreadsheet (scientific notation, digits lost): export the column as text';
    expect(rows).toEqual([
      { kind: 'invalid', row: 1, line: 2, key: '1.23457E+11', keyUntrusted: true, reason: mangled },
      expect.objectContaining({ kind: 'upsert', key: '1E5' }),
      expect.objectContaining({ kind: 'upsert', key: '00123' }),
      { kind: 'invalid', row: 4, line: 5, key: '1.23457E+11', keyUntrusted: true, reason: mangled },
    ]);
    const byEan = await mapRows(['ean', 'sku'], [['4.00638E+12', 'A-1']], { matchBy: 'ean' });
    expect(byEan[0]).toMatchObject({
      kind: 'invalid',
      keyUntrusted: true,
      reason: expect.stringMatching(/^barcode "4.00638E\+12" was turned/),
    });
    // Google Merchant's offer id is the key (read as sku).
    const merchant = await mapRows(
      ['id', 'title', 'price', 'link', 'availability'],
      [['9.78316E+12', 'Book', '10 EUR', 'https://example.com/b', 'in_stock']],
    );
    expect(merchant[0]).toMatchObject({
      kind: 'invalid',
      keyUntrusted: true,
      reason: expect.stringMatching(/^sku "9.78316E\+12" was turned/),
    });
    // Invalid for its price, the row keeps a key it can be matched by: its product is known.
    const priced = await mapRows(['sku', 'price'], [['A-1', 'abc']]);
    expect(priced[0]).toMatchObject({ kind: 'invalid', key: 'A-1' });
    expect(priced[0]).not.toHaveProperty('keyUntrusted');
  });

  it('makes the later of two rows naming one product by the id column invalid, naming the first', async () => {
    // Both would be written to product 7, the second over the first (docs/sources.md).
    const rows = await mapRows(
      ['ID', 'SKU', 'Price'],
      [
        ['7', 'A-1', '5'],
        ['8', 'B-2', '6'],
        ['7', 'C-3', '7'],
      ],
    );
    expect(rows.map((row) => row.kind)).toEqual(['upsert', 'upsert', 'invalid']);
    expect(rows[2]).toEqual({
      kind: 'invalid',
      row: 3,
      line: 4,
      key: 'C-3',
      reason: 'duplicate id "7": first seen in row 1',
    });
  });

  it('turns a record the reader could not read whole into an invalid row with its reason', async () => {
    const rows = await mapRecords(
      ['sku'],
      [{ row: 1, line: 2, values: { sku: 'A' }, problem: 'row 1 has 3 cells, the header has 1' }],
    );
    expect(rows).toEqual([
      { kind: 'invalid', row: 1, line: 2, reason: 'row 1 has 3 cells, the header has 1' },
    ]);
  });

  it('matches by another field with --match-by, and refuses one no column gives', async () => {
    const rows = await mapRows(['ean', 'price'], [['400', '5']], { matchBy: 'ean' });
    expect(rows[0]).toMatchObject({ kind: 'upsert', key: '400' });
    // Not matched by, `ean` is read as the barcode.
    expect(() => createMapper({ columns: ['ean'], matchBy: 'sku' })).toThrow(
      /^--match-by sku: no column of this source gives the field "sku" \(fields: barcode\); no preset knows/,
    );
  });

  it('refuses a --match-by one edit from a field with the nearest field, not a mapping file', () => {
    // `--match-by skuu` on a header of the tool's own fields sent the newcomer to write a mapping file.
    const columns = ['sku', 'name', 'price', 'description', 'quantity', 'brand'];
    const refusal = () => createMapper({ columns, matchBy: 'skuu' });
    expect(refusal).toThrow(
      new CatalogConfigError(
        '--match-by skuu: no column of this source gives the field "skuu"; the nearest field is sku (fields: sku, name, price, description, quantity, brand)',
      ),
    );
    expect(() => createMapper({ columns, matchBy: 'Nmae' })).toThrow(/; the nearest field is name \(/);
    // Far from every field, or a field numbered: no nearest, the mapping file's hint as before.
    expect(() => createMapper({ columns, matchBy: 'gtin' })).toThrow(/; no preset knows these columns/);
    expect(() => createMapper({ columns, matchBy: 'sku2' })).toThrow(/; no preset knows these columns/);
  });

  it("names a job file's matchBy where it was written", () => {
    expect(() =>
      createMapper({ columns: ['sku', 'name'], matchBy: 'skuu', matchByOption: 'matchBy: skuu in n1.yml' }),
    ).toThrow(
      /^matchBy: skuu in n1\.yml: no column of this source gives the field "skuu"; the nearest field is sku /,
    );
  });

  it("takes the mapping file's matchBy when --match-by is not given, and names it when no column gives it", async () => {
    const mapping = parseMapping(
      'matchBy: name\nfields:\n  name: Title\n  price: Cost\n',
      'names.yml',
      'yaml',
    );
    expect(createMapper({ columns: ['Title', 'Cost'], mapping }).matchBy).toBe('name');
    const rows = await mapRows(['Title', 'Cost'], [['Blue mug', '5']], { mapping });
    expect(rows[0]).toMatchObject({ kind: 'upsert', key: 'Blue mug' });
    // --match-by still wins over the file.
    expect(createMapper({ columns: ['Title', 'Cost'], mapping, matchBy: 'price' }).matchBy).toBe('price');
    const noName = parseMapping('matchBy: name\nfields:\n  price: Cost\n', 'names.yml', 'yaml');
    expect(() => createMapper({ columns: ['Title', 'Cost'], mapping: noName })).toThrow(
      /^matchBy name \(mapping file names\.yml\): no column of this source gives the field "name"/,
    );
  });

  it('says that no preset knows the columns when the default match field is missing', () => {
    // The folder named where it is: an installed package's, not a checkout's relative path.
    const folder = `${join(projectRoot(), 'fixtures', 'mappings')}/`;
    expect(() => createMapper({ columns: ['Artikelnummer', 'Preis'] })).toThrow(
      `; no preset knows these columns: give --mapping FILE (see ${folder})`,
    );
  });
});

describe('--fields', () => {
  it('sends exactly the chosen fields: the match field only when listed, the key kept for matching', async () => {
    const columns = ['sku', 'name', 'price', 'quantity'];
    const rows = await mapRows(columns, [['A-1', 'Mug', '5', '2']], { fields: ['name', 'price'] });
    expect(rows).toEqual([
      { kind: 'upsert', row: 1, line: 2, key: 'A-1', fields: { name: 'Mug', price: 5 } },
    ]);
    const listed = await mapRows(columns, [['A-1', 'Mug', '5', '2']], { fields: ['sku', 'price'] });
    expect(listed[0]).toMatchObject({ key: 'A-1', fields: { sku: 'A-1', price: 5 } });
    expect(createMapper({ columns, fields: ['name', 'price'] }).fields).toEqual(['name', 'price']);
  });

  it('still matches by --match-by when that field is not sent', async () => {
    const rows = await mapRows(['sku', 'ean', 'name'], [['A-1', '400', 'Mug']], {
      matchBy: 'ean',
      fields: ['sku', 'name'],
    });
    expect(rows[0]).toMatchObject({ kind: 'upsert', key: '400', fields: { sku: 'A-1', name: 'Mug' } });
    expect(rows[0]).not.toHaveProperty('fields.barcode');
  });

  it('still needs the match field and refuses a duplicate one when it is not sent', async () => {
    const rows = await mapRows(
      ['sku', 'name', 'price'],
      [
        ['', 'Mug', '5'],
        ['A-1', 'Cup', '6'],
        ['A-1', 'Jar', '7'],
      ],
      { fields: ['name', 'price'] },
    );
    expect(rows).toMatchObject([
      { kind: 'invalid', reason: 'missing sku' },
      { kind: 'upsert', key: 'A-1' },
      { kind: 'invalid', key: 'A-1', reason: 'duplicate sku "A-1": first seen in row 2' },
    ]);
  });

  it('still validates fields it does not send', async () => {
    const rows = await mapRows(['sku', 'name', 'price'], [['A-1', 'Mug', 'abc']], { fields: ['name'] });
    expect(rows[0]).toMatchObject({ kind: 'invalid' });
  });

  it('refuses a field this source does not give, in one line', () => {
    expect(() => createMapper({ columns: ['sku', 'price'], fields: ['prise'] })).toThrow(
      new CatalogConfigError(
        '--fields: prise: this source gives no such field; the nearest field is price (this source gives: sku, price)',
      ),
    );
  });
});

/** A source given as text on standard input, opened and mapped as a run does. */
async function mapText(text: string, options: Partial<MapperOptions> = {}): Promise<MappedRow[]> {
  const source = await openSource('-', { stdin: stdinOf(text) });
  try {
    const mapper = createMapper({ columns: source.columns, ...options });
    const rows: MappedRow[] = [];
    for await (const row of mapper.map(source.records)) rows.push(row);
    return rows;
  } finally {
    await source.close();
  }
}

describe('float noise in a source price', () => {
  const priceOf = (row: MappedRow | undefined) => (row?.kind === 'upsert' ? row.fields.price : row);

  it('reads a spreadsheet export as the decimal it stands for, and keeps exact ones exact', async () => {
    // Six decimals taken as money (--price-decimals 6), so that none is rounded away here.
    const rows = await mapText(
      'sku,name,price,sale_price\nA,Mug,1.5699999999999998,0.7000000000000001\nB,Cup,12.50,\nC,Jar,1.234567,\n',
      { priceDecimals: 6 },
    );
    expect(rows.map(priceOf)).toEqual([1.57, 12.5, 1.234567]);
    expect(rows[0]).toMatchObject({ fields: { sale_price: 0.7 } });
  });

  it('reads JSON numbers (0.1 + 0.2) the same way, in JSON and NDJSON sources', async () => {
    const items = [
      { sku: 'A', name: 'Mug', price: 0.1 + 0.2 },
      { sku: 'B', name: 'Cup', price: 1.1 * 1.1 },
      { sku: 'C', name: 'Jar', price: 19.99 },
    ];
    expect(JSON.stringify(items)).toContain('0.30000000000000004');
    const expected = [0.3, 1.21, 19.99];
    expect((await mapText(JSON.stringify(items))).map(priceOf)).toEqual(expected);
    const ndjson = items.map((item) => JSON.stringify(item)).join('\n');
    expect((await mapText(ndjson)).map(priceOf)).toEqual(expected);
    expect((await mapText('[{"sku":"A","price":12.50},{"sku":"B","price":0}]')).map(priceOf)).toEqual([
      12.5, 0,
    ]);
  });
});

describe('the decimal style of a source', () => {
  // Prices of a currency with three decimals (--price-decimals 3), so that 1.299 is sent as read.
  const threeDecimals = { priceDecimals: 3 };

  it('learns it from the first unambiguous price', async () => {
    const rows = await mapRows(
      ['sku', 'price'],
      [
        ['A', '12,50'],
        ['B', '1,299'],
      ],
      threeDecimals,
    );
    expect(rows[1]).toMatchObject({ kind: 'upsert', fields: { price: 1.299 } });
    const dotted = await mapRows(
      ['sku', 'price'],
      [
        ['A', '1,299.00'],
        ['B', '1,299'],
      ],
    );
    expect(dotted[1]).toMatchObject({ kind: 'upsert', fields: { price: 1299 } });
  });

  it('takes comma decimals as the guess for a ;-delimited file', async () => {
    const rows = await mapRows(['sku', 'price'], [['A', '1,299']], { delimiter: ';', ...threeDecimals });
    expect(rows[0]).toMatchObject({ kind: 'upsert', fields: { price: 1.299 } });
  });

  it('makes a price it cannot tell invalid rather than guess a factor of 1000', async () => {
    const rows = await mapRows(
      ['sku', 'price'],
      [
        ['A', '1,299'],
        ['B', '12.50'],
      ],
    );
    expect(rows[0]).toMatchObject({
      kind: 'invalid',
      reason: expect.stringMatching(/^ambiguous price "1,299"/),
    });
    expect(rows[1]).toMatchObject({ kind: 'upsert', fields: { price: 12.5 } });
  });

  // As a run maps a source: its first SAMPLE_RECORDS records read ahead and given to the mapper too.
  async function mapWithSample(
    columns: string[],
    rows: string[][],
    options: Partial<MapperOptions> = {},
  ): Promise<MappedRow[]> {
    const all = records(columns, rows);
    const mapper = createMapper({ columns, sample: all.slice(0, SAMPLE_RECORDS), ...options });
    const out: MappedRow[] = [];
    for await (const row of mapper.map(iterate(all))) out.push(row);
    return out;
  }

  it("reads a ;-file's first price with the dot a later row of its sample shows, not the guess", async () => {
    const rows = await mapWithSample(
      ['sku', 'price'],
      [
        ['A', '1.250'],
        ['B', '12.50'],
      ],
      { delimiter: ';', ...threeDecimals },
    );
    // Before: 1250, the `;` file's comma taken over the file's own evidence, a factor of 1000.
    expect(rows.map((row) => row.kind === 'upsert' && row.fields.price)).toEqual([1.25, 12.5]);
  });

  it('reads a price the first rows cannot tell by the style the rest of the sample shows', async () => {
    const rows = await mapWithSample(
      ['sku', 'price'],
      [
        ['A', '1,299'],
        ['B', '12.50'],
      ],
    );
    expect(rows.map((row) => row.kind === 'upsert' && row.fields.price)).toEqual([1299, 12.5]);
  });

  it('still refuses it when the evidence comes only after the sample', async () => {
    const filler = Array.from({ length: SAMPLE_RECORDS - 1 }, (_, i) => [`F${i}`, '7']);
    const rows = await mapWithSample(['sku', 'price'], [['A', '1,299'], ...filler, ['B', '12.50']]);
    expect(rows[0]).toMatchObject({ kind: 'invalid', reason: expect.stringMatching(/^ambiguous price/) });
    expect(rows.at(-1)).toMatchObject({ kind: 'upsert', fields: { price: 12.5 } });
  });

  // A preset's dot is what its platform's export writes; a spreadsheet re-saving it in a comma
  // locale writes `;` and decimal commas, and the file's own values win over the preset.
  const MAGENTO = ['sku', 'product_type', 'name', 'price', 'weight'];
  const weights = (rows: MappedRow[]) => rows.map((row) => (row.kind === 'upsert' ? row.fields.weight : row));

  it("reads a dot preset's x,yyy as a comma decimal when the file shows comma decimals", async () => {
    const rows = await mapWithSample(
      MAGENTO,
      [
        ['A', 'simple', 'Strap', '14', '1,23'],
        ['B', 'simple', 'Strap', '17', '1,125'],
      ],
      { preset: 'magento', delimiter: ';' },
    );
    // Before: 1125, read as a thousands group by the preset's fixed dot.
    expect(weights(rows)).toEqual([1.23, 1.125]);
  });

  it('reads a ;-file of a dot preset that only writes x,yyy as comma-decimal', async () => {
    const rows = await mapWithSample(MAGENTO, [['B', 'simple', 'Strap', '17', '453,592']], {
      preset: 'magento',
      delimiter: ';',
    });
    expect(weights(rows)).toEqual([453.592]);
  });

  it('reads a price of a 3-decimal currency so too', async () => {
    const rows = await mapWithSample(
      MAGENTO,
      [
        ['A', 'simple', 'Strap', '12,5', ''],
        ['B', 'simple', 'Strap', '1,299', ''],
      ],
      { preset: 'magento', ...threeDecimals },
    );
    expect(rows[1]).toMatchObject({ kind: 'upsert', fields: { price: 1.299 } });
  });

  it("keeps the preset's dot where the file shows nothing else, and says which style and why", async () => {
    const options = { columns: MAGENTO, preset: 'magento', delimiter: ';' };
    const rows = await mapWithSample(MAGENTO, [['A', 'simple', 'Strap', '14', '1.250']], options);
    expect(weights(rows)).toEqual([1.25]);
    const sample = records(MAGENTO, [['A', 'simple', 'Strap', '14', '1.250']]);
    expect(createMapper({ ...options, sample }).detections).toContain(
      "decimals with a dot (the magento preset's: no value of the first rows shows otherwise)",
    );
    const comma = records(MAGENTO, [['A', 'simple', 'Strap', '14', '1,23']]);
    expect(createMapper({ ...options, sample: comma }).detections).toContain(
      "decimals with a comma (the file shows 1,23, over the magento preset's dot)",
    );
  });

  it('refuses a value that reads two ways in a file that shows both styles', async () => {
    const rows = await mapWithSample(
      ['sku', 'price'],
      [
        ['A', '12,50'],
        ['B', '1,299.00'],
        ['C', '1,299'],
      ],
    );
    // Before: 1.299, by the first style seen.
    expect(rows[2]).toMatchObject({
      kind: 'invalid',
      reason: expect.stringMatching(/^ambiguous price "1,299"/),
    });
  });

  it('follows an explicit style', async () => {
    const rows = await mapRows(['sku', 'price'], [['A', '1.299']], { decimalStyle: 'comma' });
    expect(rows[0]).toMatchObject({ fields: { price: 1299 } });
  });
});

describe('the mapper', () => {
  it('says what it detected', () => {
    const mapper = createMapper({ columns: ['sku', 'price'], delimiter: ';' });
    expect(mapper.preset).toBe('generic');
    expect(mapper.detections).toEqual([
      'preset generic (the columns match no known export)',
      'decimals: a comma unless the file shows otherwise (the file is ;-delimited)',
    ]);
  });

  it('yields exactly one row per record over many records', async () => {
    const input = Array.from({ length: 500 }, (_, i) => [`S${i % 400}`, String(i)]);
    const rows = await mapRows(['sku', 'price'], input);
    expect(rows).toHaveLength(500);
    expect(rows.filter((row) => row.kind === 'invalid')).toHaveLength(100);
  });
});

describe('a mapping file on JSON, NDJSON or XML (each record names its own fields)', () => {
  const record = (row: number, values: Record<string, string>) => ({ row, line: row, values });
  const first = record(1, {
    sku: 'A',
    name: 'Mug',
    price: '5',
    link: 'https://a',
    description: 'preset desc A',
  });
  const records = [
    first,
    record(2, { sku: 'B', name: 'Cup', price: '6', canonical_link: 'https://b', long_description: 'Long B' }),
    record(3, { sku: 'C', name: 'Jug', price: '7', link: 'https://c-old', canonical_link: 'https://c' }),
  ];
  const mapped = async (yaml: string) => {
    const mapping = parseMapping(yaml, 'feed.yml', 'yaml');
    const columns = Object.keys(first.values);
    const options = { mapping, preset: 'generic', openColumns: true, sample: records };
    return (await mapRecords(columns, records, options)).flatMap((row) =>
      row.kind === 'upsert' ? [row.fields] : [],
    );
  };

  it("takes anyColumn's first column present in each record, not the first record's choice", async () => {
    const rows = await mapped('fields:\n  url:\n    anyColumn: [canonical_link, link]\n');
    expect(rows.map((fields) => fields.url)).toEqual(['https://a', 'https://b', 'https://c']);
  });

  it('leaves the preset’s value of a record that lacks an optional column', async () => {
    const rows = await mapped('fields:\n  description:\n    column: long_description\n    optional: true\n');
    expect(rows.map((fields) => fields.description)).toEqual(['preset desc A', 'Long B', undefined]);
  });

  it('still refuses a column no record of the sample has (a typo)', async () => {
    await expect(mapped('fields:\n  sku: idd\n')).rejects.toThrow(
      'feed.yml: fields.sku.column: the source has no column "idd"',
    );
  });
});

describe('a mapping file and a column named __proto__', () => {
  it('reads the column into the field it names; a record without it leaves the field absent', async () => {
    const mapping = parseMapping(
      '{"fields": {"sku": "sku", "description": "__proto__", "brand": "constructor"}}',
      'm.json',
      'json',
    );
    // As the CSV reader gives them: the second record has no cell for either column.
    const values = JSON.parse('{"sku": "A-1", "__proto__": "Red mug", "constructor": "Acme"}');
    const rows = await mapRecords(
      ['sku', '__proto__', 'constructor'],
      [
        { row: 1, line: 2, values },
        { row: 2, line: 3, values: { sku: 'A-2' } },
      ],
      { mapping },
    );
    expect(rows.map((row) => (row.kind === 'upsert' ? row.fields : row))).toEqual([
      { sku: 'A-1', description: 'Red mug', brand: 'Acme' },
      { sku: 'A-2' },
    ]);
  });

  it('refuses a field named __proto__ in one line (the schema would drop it unsaid)', () => {
    expect(() => parseMapping('{"fields": {"sku": "sku", "__proto__": "name"}}', 'm.json', 'json')).toThrow(
      new CatalogConfigError('m.json: fields.__proto__: no product field can be named so'),
    );
    expect(() => parseMapping('fields:\n  sku: sku\n  __proto__: name\n', 'm.yml', 'yaml')).toThrow(
      'm.yml: fields.__proto__: no product field can be named so',
    );
  });
});
