import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mapRealFile, realDir, unexplainedRows } from './map-real-file.js';

/** Every real export, how it is read, and what it must come to. */
const FILES: {
  file: string;
  preset?: string;
  mappingFile?: string;
  counts: { upsert: number; invalid: number; merged: number; skipped: number };
}[] = [
  {
    file: 'amazon-flat-file-synthetic/sample-variation-flat-file.tsv',
    preset: 'amazon',
    counts: { upsert: 7, invalid: 1, merged: 2, skipped: 0 },
  },
  {
    file: 'bigcommerce-api-import-script/sample_products.csv',
    preset: 'bigcommerce',
    counts: { upsert: 10, invalid: 0, merged: 0, skipped: 0 },
  },
  {
    file: 'ebay-seller-hub-upload/ebay_upload.csv',
    preset: 'ebay',
    counts: { upsert: 19, invalid: 0, merged: 0, skipped: 0 },
  },
  {
    file: 'ec-cube/product.csv',
    mappingFile: 'ec-cube.yml',
    counts: { upsert: 3, invalid: 0, merged: 0, skipped: 0 },
  },
  {
    file: 'etsy/EtsyListingsDownload.csv',
    preset: 'etsy',
    counts: { upsert: 26, invalid: 0, merged: 0, skipped: 0 },
  },
  {
    file: 'google-merchant/google-merchant-feed.tsv',
    preset: 'google-merchant',
    counts: { upsert: 3, invalid: 0, merged: 0, skipped: 0 },
  },
  {
    file: 'google-merchant/google-merchant-feed.xml',
    preset: 'google-merchant',
    // Six items priced 0: no price in a Merchant Center feed, invalid (preset-gaps-real.test.ts).
    counts: { upsert: 1, invalid: 6, merged: 0, skipped: 0 },
  },
  {
    file: 'google-merchant/google_merchant_feed.xml',
    preset: 'google-merchant',
    counts: { upsert: 2, invalid: 0, merged: 0, skipped: 0 },
  },
  {
    file: 'magento2/catalog_product.csv',
    preset: 'magento',
    counts: { upsert: 5, invalid: 0, merged: 0, skipped: 1 },
  },
  {
    file: 'magento2-integration-tests/incorrect_catalog_product_semicolon.csv',
    preset: 'magento',
    counts: { upsert: 1, invalid: 0, merged: 0, skipped: 0 },
  },
  {
    file: 'magento2-integration-tests/products_to_import.csv',
    preset: 'magento',
    counts: { upsert: 3, invalid: 0, merged: 0, skipped: 0 },
  },
  {
    file: 'magento2-integration-tests/products_to_import_with_json_and_markup_attributes.csv',
    preset: 'magento',
    counts: { upsert: 2, invalid: 0, merged: 0, skipped: 0 },
  },
  {
    file: 'magento2-integration-tests/products_to_import_with_non_latin_url_keys.csv',
    preset: 'magento',
    counts: { upsert: 4, invalid: 0, merged: 0, skipped: 0 },
  },
  {
    file: 'prestashop/products_import.csv',
    preset: 'prestashop',
    counts: { upsert: 7, invalid: 0, merged: 0, skipped: 0 },
  },
  {
    file: 'prestashop/Exemples-Import CSV - 1.6-Products-US-Mono.csv',
    preset: 'prestashop',
    counts: { upsert: 7, invalid: 0, merged: 0, skipped: 0 },
  },
  {
    file: 'shopify-export/products_export_1.csv',
    preset: 'shopify',
    counts: { upsert: 21, invalid: 0, merged: 0, skipped: 0 },
  },
  {
    file: 'shopify-template-legacy/product_template.csv',
    preset: 'shopify',
    counts: { upsert: 5, invalid: 0, merged: 0, skipped: 0 },
  },
  {
    file: 'shopify-template/product_template.csv',
    preset: 'shopify',
    counts: { upsert: 16, invalid: 0, merged: 1, skipped: 0 },
  },
  {
    file: 'shopware/products_with_variants.csv',
    preset: 'shopware',
    counts: { upsert: 0, invalid: 0, merged: 0, skipped: 2 },
  },
  {
    file: 'shopware/single-product.csv',
    preset: 'shopware',
    counts: { upsert: 1, invalid: 0, merged: 0, skipped: 0 },
  },
  {
    file: 'shopware5-swagimportexport/ArticlePricesImport.csv',
    mappingFile: 'shopware5.yml',
    counts: { upsert: 98, invalid: 0, merged: 0, skipped: 0 },
  },
  {
    file: 'shopware5-swagimportexport/article_price_profile.csv',
    mappingFile: 'shopware5.yml',
    counts: { upsert: 1, invalid: 0, merged: 0, skipped: 0 },
  },
  {
    file: 'woocommerce/cys-dummy-products.csv',
    preset: 'woocommerce',
    counts: { upsert: 6, invalid: 0, merged: 0, skipped: 0 },
  },
  {
    file: 'woocommerce/import-grouped-before-children-25706-data.csv',
    preset: 'woocommerce',
    counts: { upsert: 2, invalid: 0, merged: 0, skipped: 1 },
  },
  {
    file: 'woocommerce/sample.csv',
    preset: 'woocommerce',
    counts: { upsert: 4, invalid: 0, merged: 1, skipped: 2 },
  },
  {
    file: 'woocommerce/sample_products.csv',
    preset: 'woocommerce',
    counts: { upsert: 21, invalid: 0, merged: 2, skipped: 2 },
  },
];

describe('every real export in shared/fixtures/real', () => {
  // Presets match by sku: a row sends its own SKU as its key, or derives a key it does not send.
  it.each(FILES.filter((entry) => entry.preset))(
    "$file: sends a row's own SKU as its key, never a key the tool derived",
    async (entry) => {
      const mapped = await mapRealFile(entry.file);
      for (const upsert of mapped.upserts) {
        if (upsert.fields.sku !== undefined) expect(upsert.fields.sku).toBe(upsert.key);
        else expect(upsert.notes?.join('\n')).toMatch(/key derived .*, not sent as sku/);
      }
    },
  );

  it('is listed here, so none is left unread', () => {
    const onDisk = readdirSync(realDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((dir) => readdirSync(join(realDir, dir.name)).map((file) => `${dir.name}/${file}`))
      .sort();
    expect(FILES.map((entry) => entry.file).sort()).toEqual(onDisk);
  });

  it.each(FILES)(
    '$file: every record is an upsert, or an invalid, merged or skipped row with a reason',
    async (entry) => {
      const mapped = await mapRealFile(
        entry.file,
        entry.mappingFile ? { mappingFile: entry.mappingFile } : {},
      );
      expect(unexplainedRows(mapped)).toEqual([]);
      expect(mapped.counts).toEqual(entry.counts);
      if (entry.preset)
        expect(mapped.detections.join('\n')).toContain(`preset ${entry.preset} (detected from columns`);
    },
  );
});
