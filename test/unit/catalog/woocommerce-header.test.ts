import { describe, expect, it } from 'vitest';
import { peekRecords } from '../../../src/catalog/index.js';
import { localizeWooHeader } from '../../../src/catalog/presets/woocommerce-header.js';
import { WOO_COLUMNS } from '../../../src/catalog/presets/woocommerce-headers.js';
import type { SourceRecord } from '../../../src/interfaces.js';
import { mapRows, records } from './map-rows.js';

describe('the WooCommerce header translations', () => {
  it('never give one name two meanings', () => {
    const meaning = new Map<string, string>();
    for (const [english, byLanguage] of Object.entries(WOO_COLUMNS)) {
      for (const text of [english, ...Object.values(byLanguage).flat()]) {
        const key = text.normalize('NFKC').toLowerCase();
        expect(meaning.get(key) ?? english, `"${text}"`).toBe(english);
        meaning.set(key, english);
      }
    }
  });

  it('read a French header written with no-break spaces before "?"', () => {
    const header = [
      'Type',
      'UGS',
      'Nom',
      'Publié',
      'Mis en avant\u00a0?',
      'Tarif régulier',
      'En stock\u00a0?',
    ];
    expect(localizeWooHeader(header, [])?.columns).toEqual([
      'Type',
      'SKU',
      'Name',
      'Published',
      'Is featured?',
      'Regular price',
      'In stock?',
    ]);
  });

  it('leave an English header alone, and a header of another platform', () => {
    expect(localizeWooHeader(['ID', 'Type', 'SKU', 'Name', 'Regular price'], [])).toBeUndefined();
    expect(localizeWooHeader(['sku', 'nombre', 'precio'], [])).toBeUndefined();
  });
});

/** WooCommerce 9.x: GTIN after SKU, Low stock amount after Stock, Brands and Cost of goods after Position. */
// biome-ignore format: one header
const EXPORTER_9 = [
  'ID', 'Type', 'SKU', 'GTIN, UPC, EAN, or ISBN', 'Name', 'Published', 'Is featured?', 'Visibility in catalog',
  'Short description', 'Description', 'Date sale price starts', 'Date sale price ends', 'Tax status',
  'Tax class', 'In stock?', 'Stock', 'Low stock amount', 'Backorders allowed?', 'Sold individually?',
  'Weight (kg)', 'Length (cm)', 'Width (cm)', 'Height (cm)', 'Allow customer reviews?', 'Purchase note',
  'Sale price', 'Regular price', 'Categories', 'Tags', 'Shipping class', 'Images', 'Download limit',
  'Download expiry days', 'Parent', 'Grouped products', 'Upsells', 'Cross-sells', 'External URL',
  'Button text', 'Position', 'Brands', 'Cost of goods', 'Attribute 1 name', 'Attribute 1 value(s)',
  'Attribute 1 visible', 'Attribute 1 global',
];

function row(values: Record<string, string>): string[] {
  return EXPORTER_9.map((column) => values[column] ?? '');
}

// biome-ignore format: rows by column
const ROWS = [
  row({
    ID: '7', Type: 'variable', SKU: 'TEE', Name: 'Tee', Published: '1', 'Visibility in catalog': 'visible',
    'Tax status': 'taxable', 'Backorders allowed?': '0', 'Attribute 1 value(s)': 'S, M',
  }),
  row({
    ID: '8', Type: 'variation', SKU: '', 'GTIN, UPC, EAN, or ISBN': '4006381333931', Name: '',
    Published: "'-1", 'Visibility in catalog': 'visible', 'Tax status': 'taxable', Stock: '3',
    'Low stock amount': '', 'Backorders allowed?': 'notify', 'Regular price': '20', Parent: 'id:7',
    'Attribute 1 value(s)': 'S',
  }),
];

/** Every column name replaced by a word no table knows, as in a language this tool does not carry. */
const UNKNOWN = EXPORTER_9.map((_, i) =>
  /\d/.test(EXPORTER_9[i] ?? '') ? `Xyz ${EXPORTER_9[i]?.match(/\d+/)?.[0]} q${i}` : `Xyz q${i}`,
);

describe('a WooCommerce 9 export in a language no table knows', () => {
  it('is read by the exporter’s order and the values it never translates', () => {
    const sample: SourceRecord[] = records(UNKNOWN, ROWS);
    const localized = localizeWooHeader(UNKNOWN, sample);
    expect(localized?.columns.slice(0, 6)).toEqual([
      'ID',
      'Type',
      'SKU',
      'GTIN, UPC, EAN, or ISBN',
      'Name',
      'Published',
    ]);
    expect(localized?.columns[16]).toBe('Low stock amount');
    expect(localized?.columns[26]).toBe('Regular price');
    expect(localized?.columns[43]).toBe('Attribute 1 value(s)');
  });

  it('maps as the English header does: the variation keyed by parent and attribute, its own draft state', async () => {
    const english = await mapRows(EXPORTER_9, ROWS);
    const unknown = await mapRows(UNKNOWN, ROWS, { sample: records(UNKNOWN, ROWS) });
    expect(unknown).toEqual(english);
    expect(unknown[1]).toMatchObject({
      kind: 'upsert',
      key: 'woocommerce:id:8',
      fields: { name: 'Tee - S', price: 20, barcode: '4006381333931', status: 'draft' },
    });
  });

  it('is not taken for WooCommerce when the values do not fit', () => {
    const wrong = ROWS.map((cells) => cells.map((cell, i) => (i === 1 ? 'book' : cell)));
    expect(localizeWooHeader(UNKNOWN, records(UNKNOWN, wrong))).toBeUndefined();
  });
});

describe('peekRecords', () => {
  async function* numbered(count: number): AsyncGenerator<SourceRecord> {
    for (let row = 1; row <= count; row++) yield { row, line: row + 1, values: { n: String(row) } };
  }

  it('reads the first records ahead and gives back every record once, in order', async () => {
    const { sample, records: all } = await peekRecords(numbered(30), 20);
    expect(sample.map((record) => record.row)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const rows: number[] = [];
    for await (const record of all) rows.push(record.row);
    expect(rows).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  });

  it('leaves records that could not be read out of the sample, not out of the source', async () => {
    async function* withProblem(): AsyncGenerator<SourceRecord> {
      yield { row: 1, line: 2, values: {}, problem: 'too many cells' };
      yield { row: 2, line: 3, values: { n: '2' } };
    }
    const { sample, records: all } = await peekRecords(withProblem());
    expect(sample.map((record) => record.row)).toEqual([2]);
    const rows: number[] = [];
    for await (const record of all) rows.push(record.row);
    expect(rows).toEqual([1, 2]);
  });
});
