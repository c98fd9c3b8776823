import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { parseMapping } from '../../src/catalog/mapping-file.js';
import type { MergedRow, SkippedRow } from '../../src/interfaces.js';
import { SourceError } from '../../src/sources/source-error.js';
import { mapRealFile, realDir } from './map-real-file.js';

describe('shopify exports', () => {
  it('makes each variant of the template its own product, named by title and options', async () => {
    const file = await mapRealFile('shopify-template/product_template.csv');
    const variant = file.byKey('SRT_COT_122');
    expect(variant.fields).toMatchObject({ name: 'Example T-Shirt - Green / M', price: 25, brand: 'Acme' });
    expect(file.byKey('HAT_GRY_275').fields).toMatchObject({
      name: 'Example Beanie',
      price: 22.99,
      sale_price: 17.99,
    });
  });

  it('merges the image-only row into the first row of its handle and adds its image there', async () => {
    const file = await mapRealFile('shopify-template/product_template.csv');
    const merged = file.rows.find((row): row is MergedRow => row.kind === 'merged');
    expect(merged).toMatchObject({ row: 16, intoRow: 13, key: 'PNT_DEN_285' });
    // the three variant rows' images and the image-only row's
    expect(file.byKey('PNT_DEN_285').fields.images).toHaveLength(4);
  });

  it('does not send barcodes a spreadsheet turned into scientific notation, and says so', async () => {
    const file = await mapRealFile('shopify-template/product_template.csv');
    const variant = file.byKey('SRT_COT_111');
    expect(variant.fields.barcode).toBeUndefined();
    expect(variant.notes?.join()).toContain('3.65275E+11');
  });

  it('derives a key from handle and options when the export has no SKU, to match by, not to send', async () => {
    const file = await mapRealFile('shopify-export/products_export_1.csv');
    expect(file.byKey('shopify:floor-lamp').fields).toMatchObject({ price: 85, sale_price: 69.99 });
    expect(file.byKey('shopify:gardening-gloves:Yellow').fields).toMatchObject({
      name: 'Gardening Gloves - Yellow',
      price: 15.99,
    });
    expect(file.byKey('shopify:floor-lamp').notes?.[0]).toBe(
      'key derived from handle and options (no Variant SKU): shopify:floor-lamp, not sent as sku',
    );
    expect(file.byKey('shopify:floor-lamp').fields).not.toHaveProperty('sku');
    expect(file.byKey('shopify:gardening-gloves:Yellow').fields).not.toHaveProperty('sku');
    expect(file.upserts.filter((upsert) => upsert.fields.sku !== undefined)).toEqual([]);
  });

  it('sends the inventory quantity only of variants whose inventory Shopify tracks', async () => {
    // The T-shirts' Variant Inventory Tracker is blank (their Qty 0 does not stop Shopify selling
    // them); the pants are tracked by shopify.
    const file = await mapRealFile('shopify-template/product_template.csv');
    expect(file.byKey('SRT_COT_122').fields).not.toHaveProperty('quantity');
    expect(file.byKey('SRT_COT_122').notes).toContain(
      'inventory not tracked in Shopify (Variant Inventory Tracker blank): quantity not sent',
    );
    expect(file.byKey('PNT_DEN_285').fields.quantity).toBe(20);
    const export1 = await mapRealFile('shopify-export/products_export_1.csv');
    expect(export1.byKey('shopify:watering-can').fields).not.toHaveProperty('quantity');
    expect(export1.byKey('shopify:grey-wheelbarrow').fields.quantity).toBe(8);
  });
});

describe('woocommerce exports', () => {
  it('a stock below zero is none available; without a Stock number, In stock? 0 is none', async () => {
    // The real sample, as a shop that sells beyond its stock and one that does not manage stock
    // would export it: woo-cap at -3 (backordered), woo-belt out of stock, woo-polo on backorder.
    const records: string[][] = parse(await readFile(join(realDir, 'woocommerce/sample_products.csv')), {
      bom: true,
    });
    const [header = []] = records;
    const at = (name: string) => header.indexOf(name);
    const edits: Record<string, [string, string]> = {
      'woo-cap': ['1', '-3'],
      'woo-belt': ['0', ''],
      'woo-polo': ['backorder', ''],
    };
    for (const record of records) {
      const edit = edits[record[at('SKU')] ?? ''];
      if (edit) [record[at('In stock?')], record[at('Stock')]] = edit;
    }
    const dir = await mkdtemp(join(tmpdir(), 'woo-stock-'));
    try {
      const path = join(dir, 'export.csv');
      const quoted = (cell: string) => `"${cell.replaceAll('"', '""')}"`;
      await writeFile(path, records.map((record) => record.map(quoted).join(',')).join('\n'));
      const file = await mapRealFile(path);
      expect(file.byKey('woo-cap').fields.quantity).toBe(0);
      expect(file.byKey('woo-cap').notes).toContain('quantity -3 (sold beyond stock): sent as 0');
      expect(file.byKey('woo-belt').fields.quantity).toBe(0);
      expect(file.byKey('woo-polo').fields).not.toHaveProperty('quantity');
      expect(file.byKey('woo-sunglasses').fields).not.toHaveProperty('quantity');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('merges a variable parent into its first variation, which inherits its name', async () => {
    const file = await mapRealFile('woocommerce/sample.csv');
    expect(file.rows.find((row) => row.row === 4)).toMatchObject({
      kind: 'merged',
      key: 'WOOIDEA',
      intoRow: 5,
    });
    expect(file.byKey('woocommerce:WOOIDEA:Green/L').fields).toMatchObject({
      name: 'Ship Your Idea - Green, L',
      price: 20,
      sale_price: 17.99,
    });
    expect(file.byKey('woocommerce:WOOIDEA:Green/L').fields).not.toHaveProperty('sku');
  });

  it('skips a grouped product, whose items are rows of their own, whether before or after them', async () => {
    const file = await mapRealFile('woocommerce/import-grouped-before-children-25706-data.csv');
    const skipped = file.rows.find((row): row is SkippedRow => row.kind === 'skipped');
    expect(skipped).toMatchObject({ row: 1, key: 'GROUP-25706' });
    expect(skipped?.reason).toBe(
      'grouped product: a set of products sold one by one, not a product of its own; its items (CHILD-A-25706, CHILD-B-25706) are rows of their own',
    );
    expect(file.byKey('CHILD-B-25706').fields.price).toBe(25);
  });

  it('keys rows without SKU by their WooCommerce ID and keeps escaped inch marks', async () => {
    const file = await mapRealFile('woocommerce/cys-dummy-products.csv');
    expect(file.byKey('woocommerce:id:69').fields).toMatchObject({
      name: 'Leather-Clad Leisure Chair',
      price: 249,
    });
    expect(file.byKey('woocommerce:id:69').fields).not.toHaveProperty('sku');
    expect(file.byKey('woocommerce:id:69').notes).toEqual([
      'key derived (no SKU): woocommerce:id:69, not sent as sku',
    ]);
  });

  it('reads decimals without a leading zero', async () => {
    const file = await mapRealFile('woocommerce/sample_products.csv');
    expect(file.byKey('woo-vneck-tee-red').fields).toMatchObject({ name: 'V-Neck T-Shirt - Red', price: 20 });
    expect(file.byKey('woo-sunglasses').fields).toMatchObject({ price: 90, weight: 0.2 });
  });
});

describe('magento exports', () => {
  it('reads Cyrillic names and prices', async () => {
    const file = await mapRealFile(
      'magento2-integration-tests/products_to_import_with_non_latin_url_keys.csv',
    );
    expect(file.byKey('ukrainian-with-url-key').fields).toMatchObject({
      name: "Нове ім'я після імпорту що стане url key",
      price: 55,
    });
  });

  it('skips the grouped product (its items are rows of their own) and keeps the bundles', async () => {
    const file = await mapRealFile('magento2/catalog_product.csv');
    expect(file.rows.find((row) => row.row === 4)).toMatchObject({
      kind: 'skipped',
      key: '24-WG085_Group',
      reason: expect.stringMatching(/^grouped product: .*its items \(24-WG085, 24-WG086\)/),
    });
    expect(file.byKey('24-WG085').fields).toMatchObject({
      price: 14,
      quantity: 100,
      weight: 1.23,
      status: 'active',
    });
  });

  it('does not send a dynamic bundle’s price cell, and marks it priced from its parts; a fixed bundle keeps its price', async () => {
    const file = await mapRealFile('magento2/catalog_product.csv');
    const dynamic = file.byKey('24-WG085-bundle-dynamic');
    expect(dynamic.fields.price).toBeUndefined();
    expect(dynamic.unpriced).toBe('bundle priced from its parts');
    expect(dynamic.notes).toContain(
      'bundle_price_type dynamic: priced from its parts, its price cell (14) is not sent',
    );
    expect(file.byKey('24-WG085-bundle-fixed').fields.price).toBe(14);
    expect(file.byKey('24-WG085-bundle-fixed')).not.toHaveProperty('unpriced');
  });

  it("sends no quantity for a bundle, whose stock is its parts' (its qty cell is 0)", async () => {
    const file = await mapRealFile('magento2/catalog_product.csv');
    const fixed = file.byKey('24-WG085-bundle-fixed');
    expect(fixed.fields).not.toHaveProperty('quantity');
    expect(fixed.notes).toContain("a bundle's stock is its parts' in Magento: its qty cell (0) is not sent");
    expect(file.upserts.filter((u) => u.fields.quantity !== undefined).length).toBeGreaterThan(0);
  });

  it('reads the semicolon file Magento rejects, since the delimiter is detected (four-decimal prices too)', async () => {
    const file = await mapRealFile('magento2-integration-tests/incorrect_catalog_product_semicolon.csv');
    expect(file.detections).toContain("delimiter ';' (detected)");
    expect(file.byKey('Simple').fields).toMatchObject({ price: 100, quantity: 100 });
  });

  it('read with a comma, as Magento reads it, fails with one line naming the delimiter the file has', async () => {
    const reading = mapRealFile('magento2-integration-tests/incorrect_catalog_product_semicolon.csv', {
      sourceDelimiter: ',',
      preset: 'magento',
    });
    // The header comes out as one column holding ';': the delimiter is named, not the preset's columns.
    await expect(reading).rejects.toThrow(SourceError);
    await expect(reading).rejects.toThrow(
      /incorrect_catalog_product_semicolon\.csv: the header was read as one column "sku;store_view_code;.*": the file looks ';'-separated, not ',': check --delimiter/,
    );
  });
});

describe('other presets', () => {
  it('etsy: keys listings by their title and keeps emoji-free names exact', async () => {
    const file = await mapRealFile('etsy/EtsyListingsDownload.csv');
    expect(file.byKey('etsy:latte-paw-squishy').fields).toMatchObject({
      name: 'Latte Paw Squishy',
      price: 14.95,
      currency: 'AUD',
      quantity: 1,
    });
    expect(file.byKey('etsy:latte-paw-squishy').fields).not.toHaveProperty('sku');
    // Etsy's export writes a tag's spaces as underscores.
    expect(file.byKey('etsy:latte-paw-squishy').fields.tags).toEqual(
      expect.arrayContaining(['slow rising', 'stress relief', 'sensory toys']),
    );
    const descriptions = file.upserts.map((u) => String(u.fields.description)).join('\n');
    expect(descriptions).toContain('🍓');
  });

  it('ebay: reads "$269.99 " as 269.99 and keeps accented text', async () => {
    const file = await mapRealFile('ebay-seller-hub-upload/ebay_upload.csv');
    expect(file.byKey('LIV-ALISSON-PAB-PSA10').fields.price).toBe(269.99);
    const texts = file.upserts.map((u) => String(u.fields.description)).join('\n');
    expect(texts).toContain('Vinícius Júnior');
  });

  it('amazon: merges parents into their first child and reports the duplicate SKU', async () => {
    const file = await mapRealFile('amazon-flat-file-synthetic/sample-variation-flat-file.tsv');
    expect(file.rows.find((row) => row.row === 1)).toMatchObject({ kind: 'merged', intoRow: 2 });
    expect(file.rows.find((row) => row.row === 8)).toMatchObject({
      kind: 'invalid',
      reason: 'duplicate sku "SKU-DUP-001": first seen in row 7',
    });
    expect(file.byKey('SKU-SELLABLE-CHILD').fields).toMatchObject({ price: 12.99, quantity: 3 });
  });

  it('google merchant: splits "47.00 BGN" into price and currency and reads Cyrillic titles', async () => {
    const file = await mapRealFile('google-merchant/google_merchant_feed.xml');
    expect(file.byKey('MINOX-2').fields).toMatchObject({
      name: 'Миноксидил 2% за жени – 125 мл',
      price: 47,
      currency: 'BGN',
    });
  });

  it('google merchant: an empty <g:price/> sends no price; a bare 0 is no price (invalid, preset-gaps-real)', async () => {
    const file = await mapRealFile('google-merchant/google-merchant-feed.xml');
    expect(file.byKey('fb678cd296d616b7155f6c3fce811f02').fields.price).toBeUndefined();
    expect(file.upserts.some((u) => u.fields.price === 0)).toBe(false);
  });

  it('google merchant XML with a mapping file: a column the first item lacks is read, not refused', async () => {
    const mapping = parseMapping(
      'fields:\n  sku: id\n  name: title\n  price: price\n  description: description\n  url:\n    anyColumn: [canonical_link, link]\n',
      'feed.yml',
      'yaml',
    );
    const file = await mapRealFile('google-merchant/google-merchant-feed.xml', { mapping });
    expect(file.upserts.filter((u) => u.fields.description !== undefined)).toHaveLength(6);
    expect(file.byKey('179566f2ff9c9d1d5ef874b1b9595d4d').fields).toMatchObject({
      description: 'poetry book.',
      url: 'https://poetry.me.uk/books/kids_poetry/',
    });
  });

  it('google merchant XML: an element the first item lacks is read in the items that have it', async () => {
    // The first <item> has no <description>; the six after it each have one. Their price of 0 is
    // made one (a price of 0 makes an item invalid, which would hide what is read).
    const dir = await mkdtemp(join(tmpdir(), 'feed-'));
    try {
      const priced = join(dir, 'feed.xml');
      const text = await readFile(join(realDir, 'google-merchant/google-merchant-feed.xml'), 'utf8');
      await writeFile(priced, text.replaceAll('<g:price>0</g:price>', '<g:price>5.00 GBP</g:price>'));
      const file = await mapRealFile(priced);
      expect(file.byKey('fb678cd296d616b7155f6c3fce811f02').fields.description).toBeUndefined();
      expect(file.byKey('179566f2ff9c9d1d5ef874b1b9595d4d').fields.description).toBe('poetry book.');
      expect(file.upserts.filter((u) => u.fields.description !== undefined)).toHaveLength(6);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('platforms read with a shipped mapping file', () => {
  it('shopware 5: decimal commas, umlauts, and the variant text joined to the name', async () => {
    const file = await mapRealFile('shopware5-swagimportexport/ArticlePricesImport.csv', {
      mappingFile: 'shopware5.yml',
    });
    expect(file.byKey('SW10002.1').fields).toMatchObject({
      name: 'Münsterländer Lagerkorn 32% 1,5 Liter',
      price: 59.99,
    });
    expect(file.byKey('SW10002.2').fields.price).toBe(199);
    expect(file.byKey('SW10101').fields.price).toBe(0.79);
  });

  it('shopware 6: the repeated product is a duplicate', async () => {
    const file = await mapRealFile('shopware/products_with_variants.csv', { mappingFile: 'shopware.yml' });
    expect(file.rows[1]).toMatchObject({ kind: 'invalid', reason: expect.stringMatching(/^duplicate sku/) });
    expect(file.upserts[0]?.fields.price).toBe(590);
  });

  it('prestashop: one mapping reads the 1.6 and 1.7 samples', async () => {
    for (const name of [
      'prestashop/products_import.csv',
      'prestashop/Exemples-Import CSV - 1.6-Products-US-Mono.csv',
    ]) {
      const file = await mapRealFile(name, { mappingFile: 'prestashop.yml' });
      expect(file.byKey('RP-demo_3').fields).toMatchObject({
        name: 'MacBook Air',
        price: 1500,
        quantity: 400,
      });
    }
  });

  it('ec-cube: Japanese names, matched by name', async () => {
    const file = await mapRealFile('ec-cube/product.csv', { mappingFile: 'ec-cube.yml' });
    expect(file.byKey('アップロード商品2').fields).toMatchObject({ name: 'アップロード商品2', price: 200 });
  });

  it('bigcommerce: the bare inch mark survives', async () => {
    const file = await mapRealFile('bigcommerce-api-import-script/sample_products.csv', {
      mappingFile: 'bigcommerce.yml',
    });
    expect(file.byKey('RED-MAT-10').fields).toMatchObject({
      name: 'Redline 10" Premium Memory Foam Mattress',
      price: 595.95,
    });
  });
});

describe('a wrong --preset on a real file', () => {
  it('is one line naming the missing columns and the preset that fits', async () => {
    const reading = mapRealFile('shopify-template/product_template.csv', { preset: 'woocommerce' });
    await expect(reading).rejects.toThrow(
      '--preset woocommerce: the source has no column "name", "regular price" (preset shopify fits)',
    );
  });
});
