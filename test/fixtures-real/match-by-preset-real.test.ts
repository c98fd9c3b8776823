import { describe, expect, it } from 'vitest';
import { mapRealFile } from './map-real-file.js';

// `--match-by` a column of a real platform export: the field the preset reads the column as, as
// the generic preset's columns are (`EAN` → barcode), said in one line; each row keyed by it.
describe('--match-by a column of a real export', () => {
  it.each([
    ['google-merchant/google-merchant-feed.tsv', 'title'],
    ['google-merchant/google_merchant_feed.xml', 'title'],
    ['google-merchant/google_merchant_feed.xml', 'Title'],
  ])('%s --match-by %s matches by name', async (file, asked) => {
    const mapped = await mapRealFile(file, { matchBy: asked });

    expect(mapped.detections).toContain(
      `--match-by ${asked}: this source's title column is read as name: matched by name`,
    );
    expect(mapped.upserts.length).toBeGreaterThan(0);
    for (const upsert of mapped.upserts) expect(upsert.key).toBe(upsert.fields.name);
  });

  it('a Shopify export: --match-by Title matches by name', async () => {
    const mapped = await mapRealFile('shopify-export/products_export_1.csv', { matchBy: 'Title' });

    expect(mapped.detections).toContain(
      "--match-by Title: this source's Title column is read as name: matched by name",
    );
    expect(mapped.upserts.map((upsert) => upsert.key)).toContain('Floor Lamp');
    for (const upsert of mapped.upserts) expect(upsert.key).toBe(upsert.fields.name);
  });

  it("a Shopify template: --match-by 'Variant Barcode' matches by barcode", async () => {
    const mapped = await mapRealFile('shopify-template/product_template.csv', { matchBy: 'Variant Barcode' });

    expect(mapped.detections).toContain(
      "--match-by Variant Barcode: this source's Variant Barcode column is read as barcode: matched by barcode",
    );
    // Its barcodes are Excel's `3.65275E+11`: no key the tool can trust, as for --match-by barcode.
    const byField = await mapRealFile('shopify-template/product_template.csv', { matchBy: 'barcode' });
    expect(mapped.rows).toEqual(byField.rows);
  });
});
