import { describe, expect, it } from 'vitest';
import type { SkippedRow } from '../../src/interfaces.js';
import { mapRealFile } from './map-real-file.js';

/** Issue 17: what the source store does not sell is never created as if live. */
describe('published state in the real exports', () => {
  it('shopify template: the draft and the archived products go out with their status, never as active', async () => {
    const file = await mapRealFile('shopify-template/product_template.csv');
    const statuses = new Map(file.upserts.map((upsert) => [upsert.key, upsert.fields.status]));
    expect(statuses.get('SRT_COT_111')).toBe('active');
    for (const key of ['PNT_DEN_285', 'PNT_DEN_305', 'PNT_DEN_405']) expect(statuses.get(key)).toBe('draft');
    expect(statuses.get('HAT_GRY_275')).toBe('archived');
    expect(file.byKey('HAT_GRY_275').notes).toContain('sent with status archived: Shopify Status archived');
    expect([...statuses.values()].every((status) => status !== undefined)).toBe(true);
  });

  it('shopify template with --only-published: the draft and archived variants are skipped, the image row still merged', async () => {
    const file = await mapRealFile('shopify-template/product_template.csv', { onlyPublished: true });
    expect(file.counts).toEqual({ upsert: 12, invalid: 0, merged: 1, skipped: 4 });
    const skipped = file.rows.filter((row): row is SkippedRow => row.kind === 'skipped');
    expect(skipped.map((row) => row.key)).toEqual([
      'PNT_DEN_285',
      'PNT_DEN_305',
      'PNT_DEN_405',
      'HAT_GRY_275',
    ]);
    expect(skipped[3]?.reason).toBe(
      'not sold in the source (Shopify Status archived): left out (--only-published)',
    );
  });

  it('shopify legacy template with --fields lacking status: what is not sold is sent without status, never to be created', async () => {
    const file = await mapRealFile('shopify-template-legacy/product_template.csv', {
      fields: ['sku', 'name', 'price'],
    });
    expect(file.counts).toEqual({ upsert: 5, invalid: 0, merged: 0, skipped: 0 });
    expect(file.upserts.every((upsert) => upsert.fields.status === undefined)).toBe(true);
    // The diff creates none of these (a create without status could only go live): it updates one that exists.
    expect(file.upserts.map((upsert) => upsert.notSold)).toEqual([
      undefined,
      undefined,
      undefined,
      'Shopify Status draft',
      'Shopify Status archived',
    ]);
  });

  it('woocommerce sample: the product hidden from the catalog is sent hidden; the external and grouped ones are skipped', async () => {
    const file = await mapRealFile('woocommerce/sample_products.csv');
    expect(file.byKey('woo-hoodie-with-pocket').fields.status).toBe('hidden');
    expect(file.byKey('woo-belt').fields.status).toBe('active');
    const skipped = file.rows.filter((row): row is SkippedRow => row.kind === 'skipped');
    expect(skipped.map((row) => [row.row, row.key])).toEqual([
      [23, 'logo-collection'],
      [24, 'wp-pennant'],
    ]);
    expect(skipped[1]?.reason).toBe(
      'external (affiliate) product: sold on another site (https://mercantile.wordpress.org/product/wordpress-pennant/), not by this store (--include-external sends it)',
    );
  });

  it('woocommerce sample with --include-external: the external product is sent, with a note saying so', async () => {
    const file = await mapRealFile('woocommerce/sample_products.csv', { includeExternal: true });
    const pennant = file.byKey('wp-pennant');
    expect(pennant.fields).toMatchObject({ name: 'WordPress Pennant', status: 'active' });
    expect(typeof pennant.fields.price).toBe('number');
    expect(pennant.notes).toContain(
      'external (affiliate) product: sold on another site (https://mercantile.wordpress.org/product/wordpress-pennant/), not by this store: sent as asked (--include-external)',
    );
    const skipped = file.rows.filter((row): row is SkippedRow => row.kind === 'skipped');
    expect(skipped.map((row) => row.key)).toEqual(['logo-collection']);
  });

  it('google merchant feeds say "in stock": every item is sent active', async () => {
    const file = await mapRealFile('google-merchant/google_merchant_feed.xml');
    expect(file.upserts.map((upsert) => upsert.fields.status)).toEqual(['active', 'active']);
  });
});
