import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { REAL_FIXTURES_DIR } from '../../support/real-fixtures-dir.js';
import { bySku, type Pipeline, requestCounts, usePipeline } from '../support/pipeline.js';

const SHOPIFY = 'shopify-template/product_template.csv';
const WOOCOMMERCE = 'woocommerce/sample.csv';

/**
 * A real export copied into the test's folder with one header cell renamed and, where `edit` says,
 * cells of the rows changed (by the column's name as the export writes it): the fixture itself is
 * never copied into the repository nor changed.
 */
async function editedExport(
  pipeline: Pipeline,
  file: string,
  rename: { from: string; to: string },
  edit: (row: Record<string, string>) => void = () => {},
): Promise<string> {
  const [header = [], ...rows] = parse(await readFile(join(REAL_FIXTURES_DIR, file), 'utf8')) as string[][];
  const edited = rows.map((cells) => {
    const row = Object.fromEntries(header.map((column, i) => [column, cells[i] ?? '']));
    edit(row);
    return header.map((column) => row[column] ?? '');
  });
  const renamed = header.map((column) => (column === rename.from ? rename.to : column));
  expect(renamed).not.toEqual(header);
  const path = join(pipeline.dir, `edited-${file.replace('/', '-')}`);
  await writeFile(path, stringify([renamed, ...edited]));
  return path;
}

/** The export as it is, synced once: the products the edited copy would then update. */
async function syncedOnce(pipeline: Pipeline, file: string): Promise<void> {
  const first = await pipeline.cli(['run', join(REAL_FIXTURES_DIR, file)]);
  expect([0, 1], first.stderr).toContain(first.code);
  pipeline.sandbox.resetStats();
}

// A mistyped header cell under a platform preset was never read and nothing said so: `Variant
// Inventory Qtty` left the marketplace selling 20 that the file said were 0 ("0 updated, 16
// unchanged", exit 0), and `Variant Compare-At Price` ended every sale with an unexplained PUT.
describe('a platform export whose header mistypes a column the preset reads', () => {
  const pipeline = usePipeline();

  it('shopify: Variant Inventory Qtty is refused before anything is sent, naming the column it is near', async () => {
    await syncedOnce(pipeline, SHOPIFY);
    const before = bySku(pipeline.products()).get('PNT_DEN_285');
    expect(before?.quantity).toBe(20);
    const path = await editedExport(
      pipeline,
      SHOPIFY,
      { from: 'Variant Inventory Qty', to: 'Variant Inventory Qtty' },
      (row) => {
        if (row['Variant SKU'] === 'PNT_DEN_285') row['Variant Inventory Qty'] = '0';
      },
    );

    const result = await pipeline.cli(['run', path]);

    expect(result.code, result.stdout).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      'catalog-sync: preset shopify: a column not read, one typo from a column it reads that this file lacks: "Variant Inventory Qtty" (near "Variant Inventory Qty"): rename it "Variant Inventory Qty"',
    ]);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
    expect(pipeline.sandbox.stats().writesApplied).toBe(0);
    expect(bySku(pipeline.products()).get('PNT_DEN_285')).toEqual(before);
  });

  it('shopify: Variant Compare-At Price is refused, so no sale is ended by a PUT of the price', async () => {
    await syncedOnce(pipeline, SHOPIFY);
    const path = await editedExport(pipeline, SHOPIFY, {
      from: 'Variant Compare At Price',
      to: 'Variant Compare-At Price',
    });

    const result = await pipeline.cli(['run', path]);

    expect(result.code, result.stdout).toBe(2);
    expect(result.stderr).toContain(
      '"Variant Compare-At Price" (near "Variant Compare At Price"): rename it "Variant Compare At Price"',
    );
    expect(pipeline.sandbox.stats().writesApplied).toBe(0);
  });

  it('woocommerce: Stok is refused before the stock change it holds could be left unsent', async () => {
    await syncedOnce(pipeline, WOOCOMMERCE);
    const before = bySku(pipeline.products()).get('WOOLOGO');
    expect(before?.quantity).toBe(5);
    const path = await editedExport(pipeline, WOOCOMMERCE, { from: 'Stock', to: 'Stok' }, (row) => {
      if (row.SKU === 'WOOLOGO') row.Stock = '0';
    });

    const result = await pipeline.cli(['run', path]);

    expect(result.code, result.stdout).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      'catalog-sync: preset woocommerce: a column not read, one typo from a column it reads that this file lacks: "Stok" (near "Stock"): rename it "Stock"',
    ]);
    expect(pipeline.sandbox.stats().writesApplied).toBe(0);
    expect(bySku(pipeline.products()).get('WOOLOGO')).toEqual(before);
  });

  it('shopify: a required column mistyped (Variant Pirce) is named with the column it is near, detected or named', async () => {
    const path = await editedExport(pipeline, SHOPIFY, { from: 'Variant Price', to: 'Variant Pirce' });

    const detected = await pipeline.cli(['run', path]);
    const named = await pipeline.cli(['run', path, '--preset', 'shopify']);

    expect(detected.code, detected.stdout).toBe(2);
    expect(detected.stderr).toContain('"Variant Pirce" (near "Variant Price")');
    expect(detected.stderr).not.toContain('no preset knows these columns');
    expect(named.code, named.stdout).toBe(2);
    expect(named.stderr).toContain('"Variant Pirce" (near "Variant Price")');
    expect(pipeline.sandbox.stats().total).toBe(0);
  });

  it('woocommerce: a required column mistyped (Regular pirce) is refused, not read as a generic file', async () => {
    const path = await editedExport(pipeline, WOOCOMMERCE, { from: 'Regular price', to: 'Regular pirce' });

    const result = await pipeline.cli(['run', path]);

    expect(result.code, result.stdout).toBe(2);
    expect(result.stderr).toContain('"Regular pirce" (near "Regular price")');
    expect(pipeline.sandbox.stats().total).toBe(0);
  });

  it('a renamed column near nothing the preset reads is left as it is: the run goes on', async () => {
    await syncedOnce(pipeline, SHOPIFY);
    const path = await editedExport(pipeline, SHOPIFY, { from: 'SEO Title', to: 'SEO Headline' });

    const result = await pipeline.cli(['run', path]);

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('0 updated, 16 unchanged');
  });
});
