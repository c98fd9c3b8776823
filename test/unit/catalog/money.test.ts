import { describe, expect, it } from 'vitest';
import { addPercent } from '../../../src/catalog/decimal.js';
import { createMapper } from '../../../src/catalog/index.js';
import { asMoney, decimalsOf, roundHalfUp } from '../../../src/catalog/money.js';
import type { Decimal, MappedRow } from '../../../src/interfaces.js';
import { mapRows } from './map-rows.js';

const d = (text: string) => text as Decimal;

describe('roundHalfUp: a decimal to the decimals money has, exactly', () => {
  it.each([
    // PrestaShop keeps net prices with six decimals.
    ['125.966387', 2, '125.97'],
    // A float would give 2.67 (2.675 is 2.67499999… as a double) and 0 for 0.005.
    ['2.675', 2, '2.68'],
    ['1.005', 2, '1.01'],
    ['0.005', 2, '0.01'],
    ['0.004999', 2, '0'],
    ['0.0049', 2, '0'],
    ['19.994', 2, '19.99'],
    ['19.995', 2, '20'],
    ['999.999', 2, '1000'],
    // An exact half goes away from zero, as the API's own rounding to cents does.
    ['-0.005', 2, '-0.01'],
    ['-2.675', 2, '-2.68'],
    ['-2.674', 2, '-2.67'],
    ['-0.004', 2, '0'],
    // No minor unit (yen).
    ['125.5', 0, '126'],
    ['125.49', 0, '125'],
    ['0.5', 0, '1'],
    ['-0.5', 0, '-1'],
    // More decimals than cents (dinar: three).
    ['125.966387', 3, '125.966'],
    ['1.0005', 3, '1.001'],
    ['9.9995', 3, '10'],
    ['125.966387', 6, '125.966387'],
    ['0.0000005', 6, '0.000001'],
  ])('%s to %i decimals is %s', (value, places, expected) => {
    expect(roundHalfUp(d(value), places)).toBe(expected);
  });

  it('gives back the very value it was given when it has that many decimals or fewer', () => {
    for (const value of ['12', '12.5', '12.99', '0', '-3.1']) {
      expect(roundHalfUp(d(value), 2)).toBe(value);
    }
    expect(roundHalfUp(d('125'), 0)).toBe('125');
  });

  it('keeps every digit of a value too long for a double', () => {
    expect(roundHalfUp(d('123456789012345678.125'), 2)).toBe('123456789012345678.13');
  });
});

describe('decimalsOf and asMoney', () => {
  it.each([
    ['125', 0],
    ['125.5', 1],
    ['125.966387', 6],
    ['-0.05', 2],
  ])('%s has %i decimals', (value, count) => {
    expect(decimalsOf(d(value))).toBe(count);
  });

  it.each([
    ['149.9', 2, '149.90'],
    ['150', 2, '150.00'],
    ['125.97', 2, '125.97'],
    ['126', 0, '126'],
    ['1.5', 3, '1.500'],
  ])('%s at %i decimals is written %s', (value, places, written) => {
    expect(asMoney(d(value), places)).toBe(written);
  });
});

describe('addPercent: the tax added to the net as given, then rounded', () => {
  it.each([
    // 125.966387 × 1.19 = 149.90000053: the gross PrestaShop shows.
    ['125.966387', '19', 2, '149.9'],
    // 125.023757 × 1.19 = 148.77827083 → 148.78; rounding the net first would give 125.02 × 1.19 = 148.7738 → 148.77.
    ['125.023757', '19', 2, '148.78'],
    ['125.023757', '19', 0, '149'],
    ['125.023757', '19', 3, '148.778'],
    ['10', '19', 6, '11.9'],
    ['0.005', '19', 2, '0.01'],
    ['2.675', '0', 2, '2.68'],
  ])('%s plus %s%% to %i decimals is %s', (net, rate, places, gross) => {
    expect(addPercent(d(net), d(rate), places)).toBe(gross);
  });
});

const upsert = (row: MappedRow | undefined) => {
  if (row?.kind !== 'upsert') throw new Error(`not an upsert: ${JSON.stringify(row)}`);
  return row;
};

describe('a price with more decimals than money has, as the mapper sends it', () => {
  const COLUMNS = ['sku', 'name', 'price', 'sale_price', 'weight'];

  it('is rounded half up to cents unless told, and the row says so', async () => {
    const rows = await mapRows(COLUMNS, [
      ['A', 'Mug', '125.966387', '100.835294', '0.068357'],
      ['B', 'Cup', '2.675', '', ''],
    ]);
    expect(upsert(rows[0]).fields).toMatchObject({ price: 125.97, sale_price: 100.84, weight: 0.068357 });
    expect(upsert(rows[0]).notes).toEqual([
      'price 125.966387 → 125.97 (rounded half up to 2 decimals)',
      'sale_price 100.835294 → 100.84 (rounded half up to 2 decimals)',
    ]);
    expect(upsert(rows[1]).fields.price).toBe(2.68);
  });

  it('leaves a price that has as many decimals as money, or fewer, as it is, with no note', async () => {
    const rows = await mapRows(COLUMNS, [
      ['A', 'Mug', '12.50', '9.99', ''],
      ['B', 'Cup', '7', '', ''],
      ['C', 'Jar', '1.5699999999999998', '', ''],
    ]);
    expect(rows.map((row) => upsert(row).fields.price)).toEqual([12.5, 7, 1.57]);
    expect(rows.map((row) => upsert(row).notes)).toEqual([undefined, undefined, undefined]);
  });

  it('takes the decimals of the currency: 0, or more than 2', async () => {
    const yen = await mapRows(COLUMNS, [['A', 'Mug', '125.5', '99.49', '']], { priceDecimals: 0 });
    expect(upsert(yen[0]).fields).toMatchObject({ price: 126, sale_price: 99 });
    expect(upsert(yen[0]).notes).toContain('price 125.5 → 126 (rounded half up to 0 decimals)');

    const dinar = await mapRows(COLUMNS, [['A', 'Mug', '125.966387', '1.5', '']], { priceDecimals: 3 });
    expect(upsert(dinar[0]).fields).toMatchObject({ price: 125.966, sale_price: 1.5 });
    expect(upsert(dinar[0]).notes).toEqual(['price 125.966387 → 125.966 (rounded half up to 3 decimals)']);
  });

  it('with --tax-rate: the gross is computed from the unrounded net, then rounded, and the note says both', async () => {
    const rows = await mapRows(
      COLUMNS,
      [
        ['A', 'Mug', '125.023757', '', ''],
        ['B', 'Cup', '125.966387', '', ''],
        ['C', 'Jar', '8.40', '', ''],
      ],
      { taxRate: '19' },
    );
    // Rounding the net first would send 148.77.
    expect(rows.map((row) => upsert(row).fields.price)).toEqual([148.78, 149.9, 10]);
    expect(upsert(rows[0]).notes).toEqual([
      'price 125.023757 + 19% tax → 148.78 (rounded half up to 2 decimals)',
    ]);
    expect(upsert(rows[1]).notes).toEqual([
      'price 125.966387 + 19% tax → 149.90 (rounded half up to 2 decimals)',
    ]);
    // A net price in cents: its gross is rounded to cents as before, which the summary says.
    expect(upsert(rows[2]).notes).toBeUndefined();
  });

  it('with --tax-rate and --price-decimals: the gross is rounded to those decimals, and the summary says so', async () => {
    const columns = [
      'Product ID',
      'Active (0/1)',
      'Name *',
      'Price tax excluded',
      'Tax rules ID',
      'Reference #',
    ];
    const mapper = createMapper({ columns, taxRate: '19', priceDecimals: 0, preset: 'prestashop' });
    expect(mapper.detections).toContain(
      'prices: sent gross: Price tax excluded, with 19% tax (--tax-rate) added, rounded to 0 decimals',
    );
    const rows = await mapRows(columns, [['1', '1', 'Mug', '125.023757', '1', 'M-1']], {
      taxRate: '19',
      priceDecimals: 0,
      preset: 'prestashop',
    });
    expect(upsert(rows[0]).fields.price).toBe(149);
  });
});

describe('a rounded price, as its note says it', () => {
  const COLUMNS = ['sku', 'name', 'price'];

  it('quotes the cell as written, and rounds from it, not from its 15-digit reading', async () => {
    const rows = await mapRows(COLUMNS, [
      ['A', 'Mug', '1234567890.123456'],
      ['B', 'Cup', '12345.67499999999'],
    ]);
    expect(rows.map((row) => upsert(row).fields.price)).toEqual([1234567890.12, 12345.67]);
    expect(upsert(rows[0]).notes).toEqual([
      'price 1234567890.123456 → 1234567890.12 (rounded half up to 2 decimals)',
    ]);
    expect(upsert(rows[1]).notes).toEqual([
      'price 12345.67499999999 → 12345.67 (rounded half up to 2 decimals)',
    ]);
  });

  it('quotes a comma-decimal cell as the file writes it', async () => {
    const rows = await mapRows(COLUMNS, [['A', 'Mug', '125,966387']], { delimiter: ';' });
    expect(upsert(rows[0]).notes).toEqual(['price 125,966387 → 125.97 (rounded half up to 2 decimals)']);
  });

  it('refuses a price too long to send exactly, in one line, before anything is sent', async () => {
    const rows = await mapRows(COLUMNS, [
      ['A', 'Mug', '12345678901234567890.12'],
      ['B', 'Cup', '12.50'],
    ]);
    expect(rows[0]).toMatchObject({
      kind: 'invalid',
      row: 1,
      key: 'A',
      reason: 'price "12345678901234567890.12" has too many digits to send exactly as a JSON number',
    });
    expect(upsert(rows[1]).fields.price).toBe(12.5);
  });

  it('with --tax-rate: a gross too large to send exactly makes its row invalid, the net quoted as written', async () => {
    const rows = await mapRows(
      COLUMNS,
      [
        ['A', 'Mug', '90000000000000'],
        ['B', 'Cup', '75000000000000'],
      ],
      { taxRate: '19' },
    );
    // The net fits (9 × 10^15 cents); its gross, 1.071 × 10^16 cents, is past what a double counts.
    expect(rows[0]).toMatchObject({
      kind: 'invalid',
      row: 1,
      key: 'A',
      reason:
        'price "90000000000000" + 19% tax is too large to send exactly (with the tax it is 107100000000000.00; at most 90071992547409.91)',
    });
    expect(upsert(rows[1]).fields.price).toBe(89250000000000);
  });

  it('with --tax-rate: a gross that rounds back to the net says so, as other rounded rows do', async () => {
    const rows = await mapRows(
      COLUMNS,
      [
        ['A', 'Mug', '0.01'],
        ['B', 'Cup', '0.05'],
      ],
      { taxRate: '19' },
    );
    // 0.01 × 1.19 = 0.0119 → 0.01: the row would read as if no tax were added.
    expect(rows.map((row) => upsert(row).fields.price)).toEqual([0.01, 0.06]);
    expect(upsert(rows[0]).notes).toEqual(['price 0.01 + 19% tax → 0.01 (rounded half up to 2 decimals)']);
    // 0.0595 → 0.06: the tax shows in the price; the summary says prices are rounded to cents.
    expect(upsert(rows[1]).notes).toBeUndefined();
  });
});

describe('a price above 0 that rounding makes 0 is never sent', () => {
  const columns = ['sku', 'name', 'price', 'sale_price'];
  const reason = (row: MappedRow | undefined) =>
    row?.kind === 'invalid' ? row.reason : `not invalid: ${row?.kind}`;

  it.each([
    // The tester's row: 0.004 + 7.7% = 0.004308 → 0.00.
    [{ taxRate: '7.7' }, '0.004', 'price 0.004 + 7.7% tax rounds to 0.00 (2 decimals)'],
    [{}, '0.004', 'price 0.004 rounds to 0.00 (2 decimals)'],
    // A currency with no minor unit.
    [{ priceDecimals: 0 }, '0.4', 'price 0.4 rounds to 0 (0 decimals)'],
    [{ priceDecimals: 3 }, '0.0004', 'price 0.0004 rounds to 0.000 (3 decimals)'],
  ])('%j: %s is invalid, with its value in the reason', async (options, price, start) => {
    const [row] = await mapRows(columns, [['Z', 'Zero', price, '']], options);
    expect(reason(row)).toBe(
      `${start}: a price above 0 is never sent as 0; give at least ${'priceDecimals' in options ? (options.priceDecimals === 0 ? '1' : '0.001') : '0.01'}, or 0 for a free product`,
    );
  });

  it('a sale price too: each money field is named', async () => {
    const [row] = await mapRows(columns, [['Z', 'Zero', '5', '0.001']], { taxRate: '7.7' });
    expect(reason(row)).toMatch(/^sale_price 0\.001 \+ 7\.7% tax rounds to 0\.00 \(2 decimals\): /);
  });

  it('a 0 in the source is a free product, sent as 0; a price that rounds up to the smallest unit is sent', async () => {
    const rows = await mapRows(
      columns,
      [
        ['F', 'Free', '0', ''],
        ['H', 'Half', '0.005', ''],
      ],
      { taxRate: '7.7' },
    );
    expect(rows.map((row) => (row.kind === 'upsert' ? row.fields.price : row.kind))).toEqual([0, 0.01]);
  });

  it('a price --fields does not send is not judged', async () => {
    const [row] = await mapRows(columns, [['Z', 'Zero', '0.004', '']], { fields: ['sku', 'name'] });
    expect(row?.kind).toBe('upsert');
  });
});
