import { describe, expect, it } from 'vitest';
import type { MappedRow } from '../../../src/interfaces.js';
import { mapRows } from './map-rows.js';

const sent = (row: MappedRow | undefined) =>
  row?.kind === 'upsert'
    ? { fields: row.fields, notes: row.notes }
    : { kind: row?.kind, reason: row?.kind === 'invalid' ? row.reason : undefined };

describe('a currency written in a generic file’s price cell', () => {
  const COLUMNS = ['sku', 'name', 'price'];

  it('is sent as the currency field where it names one currency', async () => {
    const rows = await mapRows(COLUMNS, [
      ['A', 'Mug', '12.50 USD'],
      ['B', 'Cup', '12.50 EUR'],
      ['C', 'Jar', 'JPY 1500'],
      ['D', 'Pot', '€12.50'],
      ['E', 'Pan', '12.50'],
    ]);
    expect(rows.map(sent)).toEqual([
      { fields: { sku: 'A', name: 'Mug', price: 12.5, currency: 'USD' }, notes: undefined },
      { fields: { sku: 'B', name: 'Cup', price: 12.5, currency: 'EUR' }, notes: undefined },
      { fields: { sku: 'C', name: 'Jar', price: 1500, currency: 'JPY' }, notes: undefined },
      { fields: { sku: 'D', name: 'Pot', price: 12.5, currency: 'EUR' }, notes: undefined },
      // A plain price is sent as before: no currency.
      { fields: { sku: 'E', name: 'Pan', price: 12.5 }, notes: undefined },
    ]);
  });

  it('refuses a code that is no currency, in one line', async () => {
    const [row] = await mapRows(COLUMNS, [['X', 'Mug', '12.50 XYZ']]);
    expect(sent(row)).toEqual({
      kind: 'invalid',
      reason:
        'price "12.50 XYZ": XYZ is not a currency code (ISO 4217): write the currency\'s code beside the price (12.50 EUR)',
    });
  });

  it('sends no currency for a sign that several currencies write, and says so in the row', async () => {
    const rows = await mapRows(COLUMNS, [
      ['A', 'Mug', '$12.50'],
      ['B', 'Cup', '£9.99'],
    ]);
    expect(rows.map(sent)).toEqual([
      {
        fields: { sku: 'A', name: 'Mug', price: 12.5 },
        notes: [
          'price "$12.50": no currency sent: $ is the sign of several currencies (USD, ARS, AUD …); write its code (12.50 USD) or give a currency column',
        ],
      },
      {
        fields: { sku: 'B', name: 'Cup', price: 9.99 },
        notes: [
          'price "£9.99": no currency sent: £ is the sign of several currencies (GBP, FKP, GIP …); write its code (9.99 GBP) or give a currency column',
        ],
      },
    ]);
  });

  it('refuses a sign that is no currency’s (99¢ is not 99 of anything)', async () => {
    const [row] = await mapRows(COLUMNS, [['A', 'Gum', '99¢']]);
    expect(sent(row)).toMatchObject({
      kind: 'invalid',
      reason: expect.stringMatching(/^price "99¢": ¢ is /),
    });
  });

  it('checks it against the row’s own currency column and its sale price', async () => {
    const rows = await mapRows(
      ['sku', 'name', 'price', 'sale_price', 'currency'],
      [
        ['A', 'Mug', '12.50 USD', '', 'usd'],
        ['B', 'Cup', '$12.50', '', 'CAD'],
        ['C', 'Jar', '12.50 EUR', '', 'USD'],
        ['D', 'Pot', '12.50 USD', '9.99 EUR', ''],
        ['E', 'Pan', '12.50', '9.99 EUR', ''],
      ],
    );
    expect(rows.map(sent)).toEqual([
      { fields: { sku: 'A', name: 'Mug', price: 12.5, currency: 'usd' }, notes: undefined },
      // The column names which `$`.
      { fields: { sku: 'B', name: 'Cup', price: 12.5, currency: 'CAD' }, notes: undefined },
      { kind: 'invalid', reason: 'price "12.50 EUR" is in EUR, but the row\'s currency is USD' },
      { kind: 'invalid', reason: 'sale_price "9.99 EUR" is in EUR, but price "12.50 USD" is in USD' },
      { fields: { sku: 'E', name: 'Pan', price: 12.5, sale_price: 9.99, currency: 'EUR' }, notes: undefined },
    ]);
  });
});
