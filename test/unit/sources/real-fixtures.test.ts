import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REAL_FIXTURES_DIR } from '../../support/real-fixtures-dir.js';
import { openAndRead } from './helpers.js';

/** Real exports from other platforms; counts and formats are those of fixtures/real/SOURCES.md. */
const at = (path: string) => join(REAL_FIXTURES_DIR, path);

const FIXTURES: ReadonlyArray<
  [path: string, format: string, delimiter: string | undefined, records: number, columns: number]
> = [
  ['woocommerce/sample_products.csv', 'csv', ',', 25, 51],
  ['woocommerce/sample.csv', 'csv', ',', 7, 46],
  ['woocommerce/cys-dummy-products.csv', 'csv', ',', 6, 51],
  ['woocommerce/import-grouped-before-children-25706-data.csv', 'csv', ',', 3, 6],
  ['magento2/catalog_product.csv', 'csv', ',', 6, 74],
  ['magento2-integration-tests/products_to_import.csv', 'csv', ',', 3, 7],
  ['magento2-integration-tests/products_to_import_with_non_latin_url_keys.csv', 'csv', ',', 4, 7],
  ['magento2-integration-tests/products_to_import_with_json_and_markup_attributes.csv', 'csv', ',', 2, 7],
  ['magento2-integration-tests/incorrect_catalog_product_semicolon.csv', 'csv', ';', 1, 87],
  ['shopify-template/product_template.csv', 'csv', ',', 17, 48],
  ['shopify-template-legacy/product_template.csv', 'csv', ',', 5, 48],
  ['shopify-export/products_export_1.csv', 'csv', ',', 21, 48],
  ['etsy/EtsyListingsDownload.csv', 'csv', ',', 26, 24],
  ['ebay-seller-hub-upload/ebay_upload.csv', 'csv', ',', 19, 30],
  ['prestashop/products_import.csv', 'csv', ';', 7, 67],
  ['prestashop/Exemples-Import CSV - 1.6-Products-US-Mono.csv', 'csv', ';', 7, 53],
  ['shopware/products_with_variants.csv', 'csv', ';', 2, 47],
  ['shopware/single-product.csv', 'csv', ';', 1, 19],
  ['shopware5-swagimportexport/ArticlePricesImport.csv', 'csv', ';', 98, 9],
  ['shopware5-swagimportexport/article_price_profile.csv', 'csv', ';', 1, 9],
  ['ec-cube/product.csv', 'csv', ',', 3, 23],
  ['google-merchant/google_merchant_feed.xml', 'xml', undefined, 2, 9],
  ['google-merchant/google-merchant-feed.xml', 'xml', undefined, 7, 8],
  ['google-merchant/google-merchant-feed.tsv', 'csv', '\t', 3, 23],
  ['amazon-flat-file-synthetic/sample-variation-flat-file.tsv', 'csv', '\t', 10, 13],
  ['bigcommerce-api-import-script/sample_products.csv', 'csv', ',', 10, 9],
];

describe('the real exports in fixtures/real', () => {
  it('are all listed here, so a new fixture cannot go untested', () => {
    const files = readdirSync(REAL_FIXTURES_DIR).flatMap((dir) =>
      statSync(at(dir)).isDirectory() ? readdirSync(at(dir)).map((file) => `${dir}/${file}`) : [],
    );
    expect(files.sort()).toEqual(FIXTURES.map(([path]) => path).sort());
  });

  it.each(FIXTURES)(
    '%s reads as %s, %j-delimited, %i records of %i columns, none with a problem',
    async (path, format, delimiter, count, width) => {
      const { opened, records } = await openAndRead(at(path));
      expect(opened.format).toBe(format);
      expect(opened.delimiter).toBe(delimiter);
      expect(opened.encoding).toBe('utf-8');
      expect(opened.columns).toHaveLength(width);
      expect(records).toHaveLength(count);
      expect(records.map((record) => record.row)).toEqual(records.map((_, i) => i + 1));
      expect(records.filter((record) => record.problem)).toEqual([]);
    },
  );
});

describe('values from the real exports', () => {
  it('keeps the Ukrainian names and URL keys of the Magento non-latin file, and its empty last cell', async () => {
    const { records } = await openAndRead(
      at('magento2-integration-tests/products_to_import_with_non_latin_url_keys.csv'),
    );
    expect(records[0]?.values).toMatchObject({
      sku: 'imported-ukrainian-with-url-key',
      name: 'Імпортований продукт з Url Key',
      url_key: 'імпортований продукт',
    });
    expect(records[3]?.values).toMatchObject({
      name: "Нове ім'я після імпорту що стане url key",
      price: '55',
      url_key: '',
    });
  });

  it('reads the Japanese EC-CUBE headers and names (UTF-8, per SOURCES.md)', async () => {
    const { opened, records } = await openAndRead(at('ec-cube/product.csv'));
    expect(opened.columns.slice(0, 3)).toEqual(['商品ID', '公開ステータス(ID)', '商品名']);
    expect(records.map((record) => record.values.商品名)).toEqual([
      'アップロード商品1',
      'アップロード商品2',
      'アップロード商品3',
    ]);
    expect(records[0]?.values.商品ID).toBe('');
  });

  it('numbers the lines of the multi-line Etsy descriptions as Python csv does', async () => {
    const { records } = await openAndRead(at('etsy/EtsyListingsDownload.csv'));
    expect(records.slice(0, 5).map((record) => record.line)).toEqual([2, 14, 28, 39, 52]);
    expect(records.at(-1)?.line).toBe(378);
  });

  it('keeps German umlauts and decimal commas of the Shopware price list', async () => {
    const { records } = await openAndRead(at('shopware5-swagimportexport/ArticlePricesImport.csv'));
    expect(records[0]?.values).toMatchObject({
      ordernumber: 'SW10002.1',
      price: '59,99',
      _name: 'Münsterländer Lagerkorn 32%',
      _additionaltext: '1,5 Liter',
    });
  });

  it('keeps the eBay price with its trailing space and an accented name', async () => {
    const { records } = await openAndRead(at('ebay-seller-hub-upload/ebay_upload.csv'));
    expect(records.at(-1)?.values['Buy It Now price']).toBe('$80.25 ');
    expect(records.some((record) => record.values.Description?.includes('(Vinícius Júnior)'))).toBe(true);
  });

  it('names the blank PrestaShop 1.6 header cells by position and trims the last one', async () => {
    const { opened } = await openAndRead(at('prestashop/Exemples-Import CSV - 1.6-Products-US-Mono.csv'));
    expect(opened.columns).toContain('ID / Name of shop');
    expect(opened.columns.filter((name) => /^column_\d+$/.test(name)).length).toBeGreaterThan(1);
  });

  it('reads the bare inch mark in an unquoted BigCommerce name', async () => {
    const { records } = await openAndRead(at('bigcommerce-api-import-script/sample_products.csv'));
    expect(
      records.some((record) =>
        record.values['Product Name']?.includes('Redline 10" Premium Memory Foam Mattress'),
      ),
    ).toBe(true);
  });

  it('keeps the backslashes before doubled quotes in the Magento JSON attribute', async () => {
    const { records } = await openAndRead(
      at('magento2-integration-tests/products_to_import_with_json_and_markup_attributes.csv'),
    );
    expect(records.map((record) => record.values.additional_attributes).join('\n')).toContain('\\"');
  });

  it('reads the Bulgarian Merchant feed written on one line', async () => {
    const { opened, records } = await openAndRead(at('google-merchant/google_merchant_feed.xml'));
    expect(opened.columns).toContain('image_link');
    expect(records[0]?.values).toMatchObject({ id: 'MINOX-2', title: 'Миноксидил 2% за жени – 125 мл' });
    expect(records[0]?.values.price).toMatch(/ BGN$/);
  });

  it('reads plain RSS title and link, CDATA and an empty price of the poetry feed', async () => {
    const { records } = await openAndRead(at('google-merchant/google-merchant-feed.xml'));
    expect(records[0]).toMatchObject({
      row: 1,
      line: 9,
      values: {
        title: 'Battle for Singapore',
        link: 'https://poetry.me.uk/books/battle_for_singapore/',
        id: 'fb678cd296d616b7155f6c3fce811f02',
        price: '',
      },
    });
    expect(records[1]?.values).toMatchObject({ description: 'poetry book.', price: '0' });
  });

  it('keeps the Merchant sub-attribute headers of the TSV feed', async () => {
    const { opened, records } = await openAndRead(at('google-merchant/google-merchant-feed.tsv'));
    expect(opened.columns).toContain('shipping(country:price)');
    expect(records[0]?.values['shipping(country:price)']).toBe('US::0 USD');
  });
});
