import { describe, expect, it } from 'vitest';
import { pricedIn, storeCurrencyLine, storeCurrencyOf } from '../../../src/sources/stores/store-currency.js';

describe("a store's currency, as its API gives it", () => {
  it.each([
    ['EUR', 'EUR'],
    ['usd', 'USD'],
    [' JPY ', 'JPY'],
  ])('%j is the currency %s', (given, code) => {
    expect(storeCurrencyOf(given, 'the API')).toEqual({ code });
  });

  it.each([
    ['XYZ', 'the API gave "XYZ", no currency code (ISO 4217)'],
    // Shopify's CurrencyCode for a currency it does not recognise.
    ['XXX', 'the API gave "XXX", no currency code (ISO 4217)'],
    ['€', 'the API gave none, no currency code (ISO 4217)'],
    ['', 'the API gave none, no currency code (ISO 4217)'],
    [null, 'the API gave none, no currency code (ISO 4217)'],
    [42, 'the API gave none, no currency code (ISO 4217)'],
    // Not quoted: whatever a store puts there is not echoed at length.
    ['shpat_0123456789abcdef', 'the API gave none, no currency code (ISO 4217)'],
  ])('%j is no currency: unread, and why', (given, unread) => {
    expect(storeCurrencyOf(given, 'the API')).toEqual({ unread });
  });

  it('the summary line says the currency, or that prices go as numbers and why', () => {
    expect(storeCurrencyLine({ code: 'EUR' })).toBe("prices in EUR (the store's currency)");
    expect(storeCurrencyLine({ unread: '403 on /data/currencies/current' })).toBe(
      "the store's currency could not be read (403 on /data/currencies/current): prices are sent as numbers, with no currency",
    );
  });
});

describe('price cells in the store’s currency', () => {
  const columns = ['Regular price', 'Sale price'];

  it('each price cell names the currency, as `19.99 EUR` in a file; a blank one stays blank', () => {
    const row = { Name: 'Lamp 2', 'Regular price': '19.99', 'Sale price': '', Stock: '3' };
    expect(pricedIn(row, columns, { code: 'EUR' })).toEqual({
      Name: 'Lamp 2',
      'Regular price': '19.99 EUR',
      'Sale price': '',
      Stock: '3',
    });
  });

  it('an unread currency leaves the cells as numbers', () => {
    const row = { 'Regular price': '19.99', 'Sale price': '15' };
    expect(pricedIn({ ...row }, columns, { unread: '403' })).toEqual(row);
  });
});
