import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InvalidRow, MappedRow } from '../../src/interfaces.js';
import { REAL_FIXTURES_DIR } from '../support/real-fixtures-dir.js';
import { mapRealFile } from './map-real-file.js';

/**
 * A currency written in a price cell of a real export is never dropped in silence: sent as
 * `currency` whatever preset or mapping file reads it, a second currency in the row refuses it, and
 * with `--fields` leaving currency out the row keeps it to check against the listed product.
 */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'price-currency-real-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A copy of a real export with the first `from` after its header made `to`, in the test's folder. */
async function edited(file: string, from: string, to: string): Promise<string> {
  const text = await readFile(join(REAL_FIXTURES_DIR, file), 'utf8');
  const body = text.indexOf('\n') + 1;
  const at = text.indexOf(from, body);
  if (at < 0) throw new Error(`${file}: no ${from} to edit`);
  const path = join(dir, `${file.replaceAll('/', '-')}-${to.length}`);
  await writeFile(path, text.slice(0, at) + to + text.slice(at + from.length));
  return path;
}

const withCurrency = (rows: MappedRow[]) =>
  rows.flatMap((row) =>
    row.kind === 'upsert' && row.fields.currency !== undefined
      ? [{ price: row.fields.price, currency: row.fields.currency }]
      : [],
  );
const invalid = (rows: MappedRow[]) => rows.filter((row): row is InvalidRow => row.kind === 'invalid');

describe('a price cell that names its currency, in each platform’s real export', () => {
  it.each([
    // Shopify's higher compare-at is the price (85.00), the Variant Price its sale price.
    ['shopify', 'shopify-export/products_export_1.csv', '69.99,85.00', '69.99 EUR,85.00', 85],
    ['woocommerce', 'woocommerce/sample_products.csv', ',18,', ',18 EUR,', 18],
    ['magento', 'magento2/catalog_product.csv', ',14,', ',14 EUR,', 14],
    [
      'amazon',
      'amazon-flat-file-synthetic/sample-variation-flat-file.tsv',
      '\t19.99\t',
      '\t19.99 EUR\t',
      19.99,
    ],
    ['prestashop', 'prestashop/products_import.csv', ';100;', ';100 EUR;', 100],
    ['bigcommerce', 'bigcommerce-api-import-script/sample_products.csv', ',199.95,', ',199.95 EUR,', 199.95],
  ])('%s: sent as currency', async (_preset, file, from, to, price) => {
    const copy = await edited(file, from, to);
    const before = await mapRealFile(file);
    const after = await mapRealFile(copy);
    expect(withCurrency(before.rows)).toEqual([]);
    expect(withCurrency(after.rows)).toEqual([{ price, currency: 'EUR' }]);
    expect(invalid(after.rows).length).toBe(invalid(before.rows).length);
  });

  it('shopify: a compare-at price in another currency than the price refuses its row, one line', async () => {
    const copy = await edited('shopify-export/products_export_1.csv', '69.99,85.00', '69.99 EUR,85.00 USD');
    const file = await mapRealFile(copy);
    expect(invalid(file.rows).map((row) => row.reason)).toContain(
      'sale_price "69.99 EUR" is in EUR, but price "85.00 USD" is in USD',
    );
  });

  it('google merchant: a sale price in another currency than the feed’s price refuses its row', async () => {
    const file = 'google-merchant/google_merchant_feed.xml';
    const copy = await edited(
      file,
      '<g:price>47.00 BGN</g:price>',
      '<g:price>47.00 BGN</g:price><g:sale_price>40.00 EUR</g:sale_price>',
    );
    const rows = (await mapRealFile(copy, { preset: 'google-merchant' })).rows;
    expect(invalid(rows).map((row) => row.reason)).toEqual([
      'sale_price "40.00 EUR" is in EUR, but price "47.00 BGN" is in BGN',
    ]);
  });

  it('a mapping file (shopware5.yml) that maps a column of `59,99 EUR` to price sends EUR', async () => {
    const file = 'shopware5-swagimportexport/ArticlePricesImport.csv';
    const copy = await edited(file, 'SW10002.1;59,99;', 'SW10002.1;59,99 EUR;');
    const mapped = await mapRealFile(copy, { mappingFile: 'shopware5.yml' });
    expect(mapped.byKey('SW10002.1').fields).toMatchObject({ price: 59.99, currency: 'EUR' });
  });
});

describe('--fields sku,price on a real export whose prices name their currency', () => {
  it('google merchant TSV (`4.50 USD`): each row keeps USD, unsent, to check against its listed product', async () => {
    const file = await mapRealFile('google-merchant/google-merchant-feed.tsv', { fields: ['sku', 'price'] });
    const row = file.byKey('TG-PLATE-100');
    expect(row.fields).toEqual({ sku: 'TG-PLATE-100', price: 4.5 });
    expect(row.currencyUnsent).toEqual({ currency: 'USD', cell: 'price "4.50 USD"' });
    expect(file.upserts.every((upsert) => upsert.currencyUnsent?.currency === 'USD')).toBe(true);
  });

  it('etsy (CURRENCY_CODE AUD): each row keeps AUD, unsent', async () => {
    const file = await mapRealFile('etsy/EtsyListingsDownload.csv', { fields: ['price', 'quantity'] });
    expect(file.upserts.length).toBeGreaterThan(0);
    expect(file.upserts.every((upsert) => upsert.currencyUnsent?.currency === 'AUD')).toBe(true);
    expect(file.upserts[0]?.currencyUnsent?.cell).toBe('price "14.95" (currency AUD)');
  });
});
