import { describe, expect, it } from 'vitest';
import { parseMapping } from '../../../src/catalog/mapping-file.js';
import type { MappedRow } from '../../../src/interfaces.js';
import { mapRows } from './map-rows.js';

const sent = (row: MappedRow | undefined) =>
  row?.kind === 'upsert'
    ? { fields: row.fields, notes: row.notes, currencyUnsent: row.currencyUnsent }
    : { kind: row?.kind, reason: row?.kind === 'invalid' ? row.reason : undefined };

const SHOPIFY = ['Handle', 'Title', 'Variant SKU', 'Variant Price', 'Variant Compare At Price', 'Status'];

describe('a currency written in a price cell, whatever reads the file', () => {
  it('a shopify export: sent as currency, as a generic file sends it', async () => {
    const rows = await mapRows(SHOPIFY, [
      ['mug', 'Mug', 'M-1', '12.50 EUR', '', 'active'],
      ['cup', 'Cup', 'C-1', '9.50', '', 'active'],
    ]);
    expect(rows.map(sent)).toEqual([
      { fields: expect.objectContaining({ sku: 'M-1', price: 12.5, currency: 'EUR' }), notes: undefined },
      { fields: expect.not.objectContaining({ currency: expect.anything() }), notes: undefined },
    ]);
  });

  it('a shopify export: a price and a compare-at price in two currencies refuse the row, one line', async () => {
    const [row] = await mapRows(SHOPIFY, [['mug', 'Mug', 'M-1', '11 USD', '12.50 EUR', 'active']]);
    expect(sent(row)).toEqual({
      kind: 'invalid',
      reason: 'sale_price "11 USD" is in USD, but price "12.50 EUR" is in EUR',
    });
  });

  it('a google merchant feed: a sale price in another currency than the price refuses the row', async () => {
    const [ok, other] = await mapRows(
      ['id', 'title', 'price', 'sale_price', 'link'],
      [
        ['G-1', 'Mug', '12.50 USD', '11.00 USD', 'https://shop.example.test/g-1'],
        ['G-2', 'Cup', '12.50 USD', '11.00 EUR', 'https://shop.example.test/g-2'],
      ],
      { preset: 'google-merchant' },
    );
    expect(ok).toMatchObject({ kind: 'upsert', fields: { price: 12.5, sale_price: 11, currency: 'USD' } });
    expect(sent(other)).toEqual({
      kind: 'invalid',
      reason: 'sale_price "11.00 EUR" is in EUR, but price "12.50 USD" is in USD',
    });
  });

  it('an etsy export: a price cell in another currency than CURRENCY_CODE refuses the row', async () => {
    const [row] = await mapRows(
      ['TITLE', 'DESCRIPTION', 'PRICE', 'CURRENCY_CODE', 'QUANTITY', 'SKU'],
      [['Mug', 'A mug', '12.50 EUR', 'AUD', '3', 'E-1']],
    );
    expect(sent(row)).toEqual({
      kind: 'invalid',
      reason: 'price "12.50 EUR" is in EUR, but the row\'s currency is AUD',
    });
  });

  it('an ebay sheet that names no currency: one note for a $ price, not two', async () => {
    const [row] = await mapRows(
      ['Action', 'Custom label (SKU)', 'Title', 'Buy It Now price', 'Quantity'],
      [['Add', 'B-1', 'Card', '$269.99', '1']],
    );
    expect(row?.kind === 'upsert' && row.notes?.length).toBe(1);
  });

  it('a mapping file that maps a column of `12.50 EUR` to price sends EUR', async () => {
    const columns = ['Artikel', 'Bezeichnung', 'Preis'];
    const mapping = parseMapping(
      'fields:\n  sku: Artikel\n  name: Bezeichnung\n  price: Preis\n',
      'shop.yml',
      'yaml',
    );
    const rows = await mapRows(
      columns,
      [
        ['A-1', 'Becher', '12.50 EUR'],
        ['A-2', 'Tasse', '12.50 XYZ'],
      ],
      { mapping },
    );
    expect(rows.map(sent)).toEqual([
      { fields: { sku: 'A-1', name: 'Becher', price: 12.5, currency: 'EUR' }, notes: undefined },
      {
        kind: 'invalid',
        reason:
          'price "12.50 XYZ": XYZ is not a currency code (ISO 4217): write the currency\'s code beside the price (12.50 EUR)',
      },
    ]);
  });
});

describe('--fields that sends a price but not currency, where the row names the price’s currency', () => {
  it('keeps the currency with the row, to check against the listed product, notes it; sends it not', async () => {
    const rows = await mapRows(
      ['sku', 'name', 'price'],
      [
        ['A', 'Mug', '12.50 EUR'],
        ['B', 'Cup', '12.50'],
        ['C', 'Jar', '€9.50'],
      ],
      { fields: ['sku', 'price'] },
    );
    expect(rows.map(sent)).toEqual([
      {
        fields: { sku: 'A', price: 12.5 },
        notes: ['price "12.50 EUR": its currency EUR not sent (--fields leaves currency out)'],
        currencyUnsent: { currency: 'EUR', cell: 'price "12.50 EUR"' },
      },
      { fields: { sku: 'B', price: 12.5 }, notes: undefined, currencyUnsent: undefined },
      {
        fields: { sku: 'C', price: 9.5 },
        notes: ['price "€9.50": its currency EUR not sent (--fields leaves currency out)'],
        currencyUnsent: { currency: 'EUR', cell: 'price "€9.50"' },
      },
    ]);
  });

  it('a row whose currency is its column (etsy CURRENCY_CODE): the price is said to be in it', async () => {
    const [row] = await mapRows(
      ['TITLE', 'DESCRIPTION', 'PRICE', 'CURRENCY_CODE', 'QUANTITY', 'SKU'],
      [['Mug', 'A mug', '12.50', 'AUD', '3', 'E-1']],
      { fields: ['sku', 'price'] },
    );
    expect(sent(row)).toMatchObject({
      currencyUnsent: { currency: 'AUD', cell: 'price "12.50" (currency AUD)' },
    });
  });

  it('nothing to check where no price is sent, or currency is', async () => {
    const columns = ['sku', 'name', 'price', 'quantity'];
    const cells = [['A', 'Mug', '12.50 EUR', '3']];
    const [quantity] = await mapRows(columns, cells, { fields: ['sku', 'quantity'] });
    const [both] = await mapRows(columns, cells, { fields: ['sku', 'price', 'currency'] });
    expect(sent(quantity)).toMatchObject({ fields: { sku: 'A', quantity: 3 }, currencyUnsent: undefined });
    expect(sent(both)).toMatchObject({
      fields: { sku: 'A', price: 12.5, currency: 'EUR' },
      currencyUnsent: undefined,
    });
  });
});
