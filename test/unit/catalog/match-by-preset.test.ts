import { describe, expect, it } from 'vitest';
import { CatalogConfigError, createMapper, type MapperOptions } from '../../../src/catalog/index.js';
import { parseMapping } from '../../../src/catalog/mapping-file.js';
import { mapRecords, records } from './map-rows.js';

// `--match-by title` on a Google Merchant feed was refused ("no column of this source gives the
// field"), though the preset reads its `title` column as name: only the generic preset's columns
// were resolved to the field every run reads them as.

const GOOGLE = ['id', 'title', 'description', 'link', 'price', 'availability', 'gtin', 'identifier_exists'];
const GOOGLE_ROWS = [
  ['G-1', 'Blue Mug', 'A mug', 'https://s.example/1', '4.50 USD', 'in_stock', '4006381333931', 'yes'],
  ['G-2', 'Red Mug', 'A mug', 'https://s.example/2', '5.00 USD', 'in_stock', '4006381333948', 'yes'],
];

const SHOPIFY = [
  'Handle',
  'Title',
  'Body (HTML)',
  'Vendor',
  'Variant SKU',
  'Variant Price',
  'Variant Barcode',
];
const SHOPIFY_ROWS = [
  ['blue-mug', 'Blue Mug', '<p>A mug</p>', 'Acme', 'M-1', '4.50', '4006381333931'],
  ['red-mug', 'Red Mug', '<p>A mug</p>', 'Acme', 'M-2', '5.00', '4006381333948'],
];

function mapper(columns: string[], rows: string[][], options: Partial<MapperOptions>) {
  return createMapper({ columns, sample: records(columns, rows), ...options });
}

/** The refusal createMapper throws, as the user reads it. */
function refusal(make: () => unknown): string {
  try {
    make();
  } catch (error) {
    expect(error).toBeInstanceOf(CatalogConfigError);
    return (error as Error).message;
  }
  throw new Error('not refused');
}

describe('--match-by a column of a platform preset', () => {
  it.each([
    ['title', 'title', 'name'],
    ['TITLE', 'title', 'name'],
    ['gtin', 'gtin', 'barcode'],
    ['id', 'id', 'sku'],
  ])(
    'Google Merchant: %s is the field the preset reads its %s column as (%s), said in one line',
    async (asked, column, field) => {
      const made = mapper(GOOGLE, GOOGLE_ROWS, { matchBy: asked });

      expect(made.preset).toBe('google-merchant');
      expect(made.matchBy).toBe(field);
      expect(made.detections).toContain(
        `--match-by ${asked}: this source's ${column} column is read as ${field}: matched by ${field}`,
      );
      // No older run made products with a text field of the column's name: the preset never sent one.
      expect(made.matchColumnNames).toEqual([]);
    },
  );

  it('keys each row by the field the column is read as', async () => {
    const rows = await mapRecords(GOOGLE, records(GOOGLE, GOOGLE_ROWS), {
      sample: records(GOOGLE, GOOGLE_ROWS),
      matchBy: 'title',
    });
    expect(rows.map((row) => [row.kind, row.kind === 'upsert' ? row.key : ''])).toEqual([
      ['upsert', 'Blue Mug'],
      ['upsert', 'Red Mug'],
    ]);
  });

  it.each([
    ['Variant Barcode', 'barcode'],
    ['variant barcode', 'barcode'],
    ['Title', 'name'],
    ['Variant SKU', 'sku'],
    ['Vendor', 'brand'],
  ])('Shopify: %s is read as %s', (asked, field) => {
    const made = mapper(SHOPIFY, SHOPIFY_ROWS, { matchBy: asked });
    expect(made.preset).toBe('shopify');
    expect(made.matchBy).toBe(field);
    expect(made.detections.filter((line) => line.startsWith('--match-by'))).toEqual([
      `--match-by ${asked}: this source's ${SHOPIFY.find((c) => c.toLowerCase() === asked.toLowerCase())} column is read as ${field}: matched by ${field}`,
    ]);
  });

  it('a field named directly is that field, with no line', () => {
    for (const field of ['name', 'barcode', 'sku']) {
      const made = mapper(GOOGLE, GOOGLE_ROWS, { matchBy: field });
      expect(made.matchBy).toBe(field);
      expect(made.detections.some((line) => line.startsWith('--match-by'))).toBe(false);
    }
  });

  it('a column the preset reads as no field is refused in one line saying so', () => {
    const message = refusal(() => mapper(GOOGLE, GOOGLE_ROWS, { matchBy: 'identifier_exists' }));
    expect(message).toBe(
      "--match-by identifier_exists: the google-merchant preset does not read this source's identifier_exists column as one product field in every row, so rows cannot be matched by it (fields: sku, name, description, price, sale_price, currency, url, images, availability, condition, brand, barcode, mpn, category, status)",
    );
    expect(refusal(() => mapper(SHOPIFY, SHOPIFY_ROWS, { matchBy: 'Handle' }))).toMatch(
      /^--match-by Handle: the shopify preset does not read this source's Handle column as one product field in every row, so rows cannot be matched by it \(fields: /,
    );
  });

  it('a name one edit from a column the preset reads names that column and its field', () => {
    expect(refusal(() => mapper(SHOPIFY, SHOPIFY_ROWS, { matchBy: 'Variant Barcod' }))).toMatch(
      /^--match-by Variant Barcod: no column of this source gives the field "Variant Barcod"; the nearest column is Variant Barcode, read as barcode \(fields: [^\n]*\)$/,
    );
    expect(refusal(() => mapper(GOOGLE, GOOGLE_ROWS, { matchBy: 'titel' }))).toMatch(
      /; the nearest column is title, read as name \(fields: /,
    );
    // Further off: the nearest field, as before, else nothing near.
    expect(refusal(() => mapper(GOOGLE, GOOGLE_ROWS, { matchBy: 'skuu' }))).toMatch(
      /; the nearest field is sku \(/,
    );
    expect(refusal(() => mapper(GOOGLE, GOOGLE_ROWS, { matchBy: 'colour' }))).toMatch(
      /^--match-by colour: no column of this source gives the field "colour" \(fields: /,
    );
  });

  it('a nearest field with an invisible character names the character, as a key refusal does', () => {
    // A header cell `\u200bsku` (a copy from a web page): the message printed it invisibly, so it
    // read "the nearest field is sku" of a source said to give no sku.
    const header = ['\u200bsku', 'name', 'price'];
    expect(refusal(() => mapper(header, [['M-1', 'Mug', '5']], {}))).toBe(
      '--match-by sku (the default): no column of this source gives the field "sku"; the nearest field is "\\u200bsku", which starts with an invisible character (U+200B zero width space) (fields: \\u200bsku, name, price)',
    );
  });

  it('a key column one typo from the field asked for is named as misspelt, with the rename', () => {
    // `skuu,name,prise,quantity`: the line named the user's own misspelling as "the nearest field"
    // and never said to rename it, where every other misspelt column is told so.
    const header = ['skuu', 'name', 'prise', 'quantity'];
    expect(refusal(() => mapper(header, [['A-1', 'Thing one', '12.50', '3']], {}))).toBe(
      '--match-by sku (the default): no column of this source gives the field "sku"; the column skuu looks like sku misspelt: rename it "sku" (or give --match-by the field to match by) (fields: skuu, name, prise, quantity)',
    );
    expect(
      refusal(() => mapper(['sku', 'name', 'barcod'], [['A-1', 'Mug', '40']], { matchBy: 'barcode' })),
    ).toMatch(/; the column barcod looks like barcode misspelt: rename it "barcode" \(or give --match-by /);
  });

  it("a job file's matchBy is named where it was written", () => {
    expect(
      refusal(() =>
        mapper(GOOGLE, GOOGLE_ROWS, {
          matchBy: 'identifier_exists',
          matchByOption: 'matchBy: identifier_exists in n.yml',
        }),
      ),
    ).toMatch(/^matchBy: identifier_exists in n\.yml: the google-merchant preset does not read /);
  });

  it('a column read otherwise through a mapping file over the preset is not the preset field', () => {
    // The mapping gives name from `description`: `title` is read as no field any more.
    const mapping = parseMapping('preset: google-merchant\nfields:\n  name: description\n', 'g.yml', 'yaml');
    expect(refusal(() => mapper(GOOGLE, GOOGLE_ROWS, { mapping, matchBy: 'title' }))).toMatch(
      /^--match-by title: the google-merchant preset does not read this source's title column as one product field in every row, so rows cannot be matched by it/,
    );
    // Its other columns are still read as the preset reads them.
    expect(mapper(GOOGLE, GOOGLE_ROWS, { mapping, matchBy: 'gtin' }).matchBy).toBe('barcode');
  });

  it('a localized WooCommerce header: the column as the file writes it', () => {
    const columns = [
      'Typ',
      'Artikelnummer',
      'Name',
      'Veröffentlicht',
      'Regulärer Preis',
      'GTIN, UPC, EAN oder ISBN',
    ];
    const rows = [['simple', 'W-1', 'Tasse', '1', '4.50', '4006381333931']];
    const made = mapper(columns, rows, { matchBy: 'artikelnummer' });
    expect(made.preset).toBe('woocommerce');
    expect(made.matchBy).toBe('sku');
  });
});
