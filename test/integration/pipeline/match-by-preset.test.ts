import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REAL_FIXTURES_DIR } from '../../support/real-fixtures-dir.js';
import { requestCounts, usePipeline } from '../support/pipeline.js';

const GOOGLE_TSV = join(REAL_FIXTURES_DIR, 'google-merchant/google-merchant-feed.tsv');
const SHOPIFY_EXPORT = join(REAL_FIXTURES_DIR, 'shopify-export/products_export_1.csv');

/** The first item of the Google Merchant TSV export, as its columns give it. */
const FIRST = { id: 'TG-PLATE-100', title: 'Tap to Give NFC Plate for Churches (100-199 Pack)' };

// `--match-by title` on a Google Merchant feed was refused (exit 2: "no column of this source gives
// the field"), though the preset reads its `title` column as name; only the generic preset's columns
// were resolved. It now matches by name, as `--match-by name` does, and says so in one line.
describe('--match-by a column of a real platform export', () => {
  const pipeline = usePipeline();

  it('Google Merchant --match-by title matches by name; the re-run creates nothing', async () => {
    // A product of the first item's name under another SKU: matched by name, it is that item's.
    const [id] = pipeline.sandbox.seedProducts('seller-main', [
      { sku: 'OLD-100', name: FIRST.title, price: 1 },
    ]);

    const first = await pipeline.cli(['run', GOOGLE_TSV, '--match-by', 'title']);

    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.stdout).toContain(
      "--match-by title: this source's title column is read as name: matched by name",
    );
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 2, updates: 1 });
    const made = pipeline.products();
    expect(made).toHaveLength(3);
    expect(made.find((product) => String(product.id) === id)).toMatchObject({
      sku: FIRST.id,
      name: FIRST.title,
    });
    pipeline.sandbox.resetStats();

    const again = await pipeline.cli(['run', GOOGLE_TSV, '--match-by', 'TITLE']);

    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
    expect(pipeline.products()).toEqual(made);
  });

  it('a run by sku, then --match-by title: found by name, nothing created a second time', async () => {
    const bySku = await pipeline.cli(['run', GOOGLE_TSV]);
    expect(bySku.code, bySku.stdout + bySku.stderr).toBe(0);
    const made = pipeline.products();
    pipeline.sandbox.resetStats();

    const byTitle = await pipeline.cli(['run', GOOGLE_TSV, '--match-by', 'title']);

    expect(byTitle.code, byTitle.stdout + byTitle.stderr).toBe(0);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
    expect(pipeline.products()).toEqual(made);
  });

  it('a create giving a listed product its SKU is held, as for --match-by name', async () => {
    // The first item's SKU on a product of another name: by name, the item would be made again.
    const [id] = pipeline.sandbox.seedProducts('seller-main', [
      { sku: FIRST.id, name: 'Old plate', price: 1 },
    ]);

    const held = await pipeline.cli(['run', GOOGLE_TSV, '--match-by', 'title']);

    expect(held.code, held.stdout + held.stderr).toBe(5);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
    expect(held.stdout).toContain(
      `  held      row 1 (name ${FIRST.title}) would create a product, but product ${id} has its sku ${FIRST.id}: ` +
        'creating it may duplicate that product (approve creates it anyway): nothing was sent',
    );
    expect(pipeline.products()).toHaveLength(1);
  });

  it('a column the preset reads as no field is refused in one line, exit 2', async () => {
    const refused = await pipeline.cli(['run', GOOGLE_TSV, '--match-by', 'identifier_exists']);

    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toContain(
      "--match-by identifier_exists: the google-merchant preset does not read this source's identifier_exists column as one product field in every row, so rows cannot be matched by it (fields: ",
    );
    expect(pipeline.sandbox.stats().total).toBe(0);
  });

  it('Shopify export --match-by Title matches by name; the re-run creates nothing', async () => {
    const first = await pipeline.cli(['run', SHOPIFY_EXPORT, '--match-by', 'Title']);
    expect(first.stdout).toContain(
      "--match-by Title: this source's Title column is read as name: matched by name",
    );
    const made = pipeline.products();
    expect(made.length).toBeGreaterThan(0);
    pipeline.sandbox.resetStats();

    const again = await pipeline.cli(['run', SHOPIFY_EXPORT, '--match-by', 'Title']);

    expect(again.code).toBe(first.code);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
    expect(pipeline.products()).toEqual(made);
    const names = made.map((product) => product.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
