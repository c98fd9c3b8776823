import { describe, expect, it } from 'vitest';
import type { MappedRow } from '../../../src/interfaces.js';
import { mapRows } from './map-rows.js';

/** The run's start in these tests: 2025-06-15, noon UTC. */
const NOW = Date.UTC(2025, 5, 15, 12);

/** Each row's sale as the upsert says it: the sale price sent, `no sale` (ProductUpsert.noSale), or nothing said. */
function saleOf(row: MappedRow): unknown {
  if (row.kind !== 'upsert') return row.kind;
  if (row.fields.sale_price !== undefined) return row.fields.sale_price;
  return row.noSale ? 'no sale' : 'unsaid';
}

describe('a row that says its product is on no sale now (it ends one the marketplace still shows)', () => {
  const WOO = [
    'Type',
    'SKU',
    'Name',
    'Regular price',
    'Sale price',
    'Date sale price starts',
    'Date sale price ends',
  ];
  const wooRows = [
    ['simple', 'ON', 'On sale', '20', '12', '', ''],
    ['simple', 'BLANK', 'No sale price', '20', '', '', ''],
    ['simple', 'ENDED', 'Ended', '20', '12', '2025-01-01', '2025-06-14'],
    ['simple', 'LATER', 'Not begun', '20', '12', '2030-12-24', ''],
  ];

  it('woocommerce: a blank Sale price, a sale ended or not begun; a running sale sends its price', async () => {
    const rows = await mapRows(WOO, wooRows, { now: NOW });
    expect(rows.map(saleOf)).toEqual([12, 'no sale', 'no sale', 'no sale']);
  });

  it('woocommerce: a file without a Sale price column says nothing of sales', async () => {
    const rows = await mapRows(['Type', 'SKU', 'Name', 'Regular price'], [['simple', 'A', 'A', '20']], {
      now: NOW,
    });
    expect(rows.map(saleOf)).toEqual(['unsaid']);
  });

  it('--fields without sale_price sends no sale price, and ends none', async () => {
    const rows = await mapRows(WOO, wooRows, { now: NOW, fields: ['sku', 'price'] });
    expect(rows.map(saleOf)).toEqual(['unsaid', 'unsaid', 'unsaid', 'unsaid']);
  });

  it('shopify: a blank compare-at, or one not above the price, is no sale; a file without the column says nothing', async () => {
    const columns = ['Handle', 'Title', 'Variant SKU', 'Variant Price', 'Variant Compare At Price'];
    const rows = await mapRows(columns, [
      ['sale', 'Sale', 'S', '10.00', '15.00'],
      ['plain', 'Plain', 'P', '12.00', ''],
      ['equal', 'Equal', 'E', '12.00', '12.00'],
    ]);
    expect(rows.map(saleOf)).toEqual([10, 'no sale', 'no sale']);
    const without = await mapRows(
      ['Handle', 'Title', 'Variant SKU', 'Variant Price'],
      [['p', 'P', 'P', '12.00']],
    );
    expect(without.map(saleOf)).toEqual(['unsaid']);
  });
});
