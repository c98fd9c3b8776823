import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMapper, type MapperOptions } from '../../../src/catalog/index.js';
import type { MappedRow, SourceRecord } from '../../../src/interfaces.js';
import { openSource } from '../../../src/sources/index.js';
import { REAL_FIXTURES_DIR } from '../../support/real-fixtures-dir.js';
import { iterate, mapRows } from './map-rows.js';

/** The run's start in these tests: 2025-06-15, noon UTC. */
const NOW = Date.UTC(2025, 5, 15, 12);

/** A real export, its records edited (cells set by column) before the mapper reads them. */
async function mapReal(
  file: string,
  options: Partial<MapperOptions>,
  edit: (values: Record<string, string>, row: number) => void = () => {},
): Promise<MappedRow[]> {
  const source = await openSource(join(REAL_FIXTURES_DIR, file));
  try {
    const records: SourceRecord[] = [];
    for await (const record of source.records) {
      edit(record.values, record.row);
      records.push(record);
    }
    const mapper = createMapper({ columns: source.columns, ...options });
    const rows: MappedRow[] = [];
    for await (const row of mapper.map(iterate(records))) rows.push(row);
    return rows;
  } finally {
    await source.close();
  }
}

/** What became of each row's sale price: sent, the note saying why not, or the invalid reason. */
function saleOf(row: MappedRow | undefined): unknown {
  if (row?.kind === 'invalid') return { invalid: row.reason };
  if (row?.kind !== 'upsert') return row?.kind;
  if (row.fields.sale_price !== undefined) return row.fields.sale_price;
  return { note: row.notes?.find((note) => note.includes('not sent: its sale')) };
}

describe('woocommerce: Date sale price starts / ends', () => {
  const COLUMNS = [
    'Type',
    'SKU',
    'Name',
    'Regular price',
    'Sale price',
    'Date sale price starts',
    'Date sale price ends',
  ];

  it('sends a sale price only while its sale runs at the run start: future, ended, running, no dates', async () => {
    const rows = await mapRows(
      COLUMNS,
      [
        ['simple', 'FUTURE', 'Future', '20', '12', '2030-12-24', '2030-12-31'],
        ['simple', 'ENDED', 'Ended', '20', '12', '2025-01-01', '2025-06-14'],
        ['simple', 'RUNNING', 'Running', '20', '12', '2025-06-01 00:00:00', '2025-06-15'],
        ['simple', 'NO-DATES', 'No dates', '20', '12', '', ''],
      ],
      { now: NOW },
    );
    expect(rows.map(saleOf)).toEqual([
      { note: 'Sale price 12 not sent: its sale has not started (it runs 2030-12-24 to 2030-12-31)' },
      {
        note: 'Sale price 12 not sent: its sale ended 2025-06-14 (it ran from 2025-01-01)',
      },
      12,
      12,
    ]);
    // The regular price goes either way.
    expect(rows.map((row) => (row.kind === 'upsert' ? row.fields.price : row.kind))).toEqual([
      20, 20, 20, 20,
    ]);
  });

  it('the real importer sample: each of its date forms read, judged at the run start', async () => {
    const at = async (now: number) => {
      const rows = await mapReal('woocommerce/sample.csv', { now, includeExternal: true });
      return Object.fromEntries(rows.map((row) => [row.row, saleOf(row)]));
    };
    // WOOLOGO 2017-01-01 to "2030-01-01 0:00:00"; WOOALBUM "Jul 8, 2023" to 1689239400 (13 July
    // 2023, 09:10 UTC); the external one "2023-07-08 05:10:15" to 2023/07/13; a variation 17.99
    // without dates.
    const during = await at(Date.UTC(2023, 6, 10));
    expect([during[1], during[2], during[3], during[6]]).toEqual([18, 4, 180, 17.99]);
    const before = await at(Date.UTC(2023, 6, 1));
    expect(before[2]).toEqual({
      note: 'Sale price 4 not sent: its sale has not started (it runs 2023-07-08 to 2023-07-13)',
    });
    expect(before[3]).toEqual({
      note: 'Sale price 180 not sent: its sale has not started (it runs 2023-07-08 to 2023-07-13)',
    });
    const after = await at(NOW);
    expect([after[1], after[6]]).toEqual([18, 17.99]);
    expect(after[2]).toMatchObject({
      note: expect.stringMatching(/^Sale price 4 not sent: its sale ended 2023-07-13 /),
    });
    // 2023/07/13 is a whole day: the sale runs through it.
    expect((await at(Date.UTC(2023, 6, 13, 23)))[3]).toBe(180);
    expect((await at(Date.UTC(2030, 0, 1, 0, 0, 1)))[1]).toMatchObject({
      note: expect.stringMatching(/^Sale price 18 not sent: its sale ended 2030-01-01 /),
    });
  });

  it('an unreadable sale date makes the row invalid, naming it; without a sale price sent the dates are not read', async () => {
    const rows = await mapRows(
      COLUMNS,
      [
        ['simple', 'AMBIGUOUS', 'A', '20', '12', '', '07/08/2030'],
        ['simple', 'NO-SALE', 'B', '20', '', '', 'soon'],
      ],
      { now: NOW },
    );
    expect(rows[0]).toMatchObject({
      kind: 'invalid',
      key: 'AMBIGUOUS',
      reason:
        'Date sale price ends "07/08/2030" is not a date as WooCommerce writes it (2030-12-24, 2030-12-24 10:00:00)',
    });
    expect(rows[1]).toMatchObject({ kind: 'upsert', fields: { price: 20 } });
    // With --fields leaving sale_price out, its dates are not read: no note, no invalid row.
    const unsent = await mapRows(
      COLUMNS,
      [
        ['simple', 'AMBIGUOUS', 'A', '20', '12', '', '07/08/2030'],
        ['simple', 'ENDED', 'B', '20', '12', '2025-01-01', '2025-06-14'],
      ],
      { now: NOW, fields: ['sku', 'price'] },
    );
    expect(unsent.map((row) => [row.kind, row.kind === 'upsert' ? (row.notes ?? []) : []])).toEqual([
      ['upsert', []],
      ['upsert', []],
    ]);
  });
});

describe('magento: special_price_from_date / special_price_to_date', () => {
  /** The real sample's three simples (price 14, 17, 21), with a special price as the export writes it. */
  const special: Record<number, [string, string, string]> = {
    1: ['10', '1/1/30', '1/31/30'],
    2: ['12', '1/1/20', '1/31/20'],
    3: ['15', '6/1/25, 12:00 AM', '6/30/25, 11:59 PM'],
  };

  it('sends a special price only while it runs at the run start (the real export, its dates filled)', async () => {
    const rows = await mapReal('magento2/catalog_product.csv', { now: NOW }, (values, row) => {
      const cells = special[row];
      if (!cells) return;
      [values.special_price, values.special_price_from_date, values.special_price_to_date] = cells;
    });
    expect(rows.slice(0, 3).map(saleOf)).toEqual([
      { note: 'special_price 10 not sent: its sale has not started (it runs 2030-01-01 to 2030-01-31)' },
      {
        note: 'special_price 12 not sent: its sale ended 2020-01-31 (it ran from 2020-01-01)',
      },
      15,
    ]);
    expect(rows.slice(0, 3).map((row) => (row.kind === 'upsert' ? row.fields.price : row.kind))).toEqual([
      14, 17, 21,
    ]);
  });

  const COLUMNS = [
    'sku',
    'product_type',
    'name',
    'price',
    'special_price',
    'special_price_from_date',
    'special_price_to_date',
  ];

  it('empty dates send it as before; an end alone that passed does not; an unreadable date is invalid', async () => {
    const rows = await mapRows(
      COLUMNS,
      [
        ['NO-DATES', 'simple', 'A', '20', '15', '', ''],
        ['TO-ONLY', 'simple', 'B', '20', '15', '', '2025-06-14 23:59:59'],
        ['FROM-ONLY', 'simple', 'C', '20', '15', '7/1/25', ''],
        ['BAD', 'simple', 'D', '20', '15', '31.12.2030', ''],
      ],
      { now: NOW, preset: 'magento' },
    );
    expect(rows.map(saleOf)).toEqual([
      15,
      {
        note: 'special_price 15 not sent: its sale ended 2025-06-14',
      },
      { note: 'special_price 15 not sent: its sale has not started (it starts 2025-07-01)' },
      {
        invalid:
          'special_price_from_date "31.12.2030" is not a date as Magento writes it (1/1/30, 12/31/30 11:59 PM, 2030-12-31)',
      },
    ]);
  });
});

describe('google-merchant: sale_price_effective_date', () => {
  it('sends sale_price only while its period runs (TSV names, and XML g: names)', async () => {
    for (const prefix of ['', 'g:']) {
      const columns = ['id', 'title', 'price', 'sale_price', 'sale_price_effective_date'].map(
        (name) => `${prefix}${name}`,
      );
      const rows = await mapRows(
        columns,
        [
          ['FUTURE', 'Future', '20 USD', '12', '2030-12-24T00:00-08:00/2030-12-31T23:59-08:00'],
          ['ENDED', 'Ended', '20 USD', '12', '2020-01-01T00:00-08:00/2020-01-31T23:59-08:00'],
          ['RUNNING', 'Running', '20 USD', '12', '2025-06-01T00:00:00+0200/2025-06-15T23:59:59Z'],
          ['NO-DATES', 'No dates', '20 USD', '12', ''],
        ],
        { now: NOW, preset: 'google-merchant' },
      );
      expect(rows.map(saleOf)).toEqual([
        { note: 'sale_price 12 not sent: its sale has not started (it runs 2030-12-24 to 2030-12-31)' },
        {
          note: 'sale_price 12 not sent: its sale ended 2020-01-31 (it ran from 2020-01-01)',
        },
        12,
        12,
      ]);
    }
  });

  it('reads the offset: a period that ended at 23:59 -08:00 still runs at 07:00 UTC the next day', async () => {
    const columns = ['id', 'title', 'price', 'sale_price', 'sale_price_effective_date'];
    const row = ['X', 'X', '20 USD', '12', '2025-06-01T00:00-08:00/2025-06-14T23:59-08:00'];
    const [running] = await mapRows(columns, [row], {
      now: Date.UTC(2025, 5, 15, 7, 58),
      preset: 'google-merchant',
    });
    const [ended] = await mapRows(columns, [row], {
      now: Date.UTC(2025, 5, 15, 8, 0),
      preset: 'google-merchant',
    });
    expect([saleOf(running), saleOf(ended)]).toEqual([
      12,
      { note: expect.stringMatching(/^sale_price 12 not sent: its sale ended 2025-06-14 /) },
    ]);
  });

  it('a period that is not an ISO 8601 interval makes the row invalid', async () => {
    const columns = ['id', 'title', 'price', 'sale_price', 'sale_price_effective_date'];
    const [row] = await mapRows(columns, [['X', 'X', '20 USD', '12', '2030-12-24']], {
      now: NOW,
      preset: 'google-merchant',
    });
    expect(row).toMatchObject({
      kind: 'invalid',
      key: 'X',
      reason:
        'sale_price_effective_date "2030-12-24" is not a period as Google Merchant writes it (2020-01-01T00:00-08:00/2020-01-31T23:59-08:00)',
    });
  });
});
