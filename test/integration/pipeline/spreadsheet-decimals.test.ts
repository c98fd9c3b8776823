import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resavedExport } from '../../fixtures-real/resaved.js';
import { parseCsv } from '../support/catalog.js';
import { bySku, usePipeline } from '../support/pipeline.js';

/**
 * A platform's export opened in a spreadsheet in a comma-decimal locale and saved again (`;`, decimal
 * commas). The presets of platforms whose export writes dots read every `x,yyy` as thousands: a
 * weight of `453,592` g went out as 453592, row `ok`, no note, while `226,796185` in the same file
 * was read right; the summary said "decimals with a dot".
 */
describe('a real export re-saved by a comma-decimal spreadsheet', () => {
  const pipeline = usePipeline();

  async function run(source: string) {
    const result = await pipeline.cli(['run', source, '--report', join(pipeline.dir, 'report.csv')]);
    const report = parseCsv(await pipeline.readText('report.csv'));
    return { result, report, products: bySku(pipeline.products()) };
  }

  it('Shopify (cp1252): a weight of 453,592 g is 453.592, as the file shows its decimals', async () => {
    const source = await resavedExport(pipeline.dir, 'shopify-template/product_template.csv', {
      encoding: 'cp1252',
      edits: [
        [0, 'Title', 'T-Shirt Größe S'],
        // One pound, as Shopify keeps it in grams.
        [1, 'Variant Grams', '453.592'],
      ],
    });

    const { result, report, products } = await run(source);

    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(products.get('SRT_COT_122')?.weight).toBe(453.592);
    expect(products.get('PNT_DEN_285')?.weight).toBe(226.796185);
    expect(products.get('HAT_GRY_275')).toMatchObject({ price: 22.99, sale_price: 17.99, weight: 72 });
    expect(products.get('SRT_COT_111')?.name).toBe('T-Shirt Größe S - Green / S');
    const row = report.find((line) => line.key === 'SRT_COT_122');
    expect(row).toMatchObject({ action: 'create', status: 'ok', error: '' });
    expect(row?.note).not.toContain('weight');
    // The summary says which style, and why.
    expect(result.stdout).toContain('encoding windows-1252 (detected: not valid UTF-8)');
    expect(result.stdout).toMatch(
      /\n {12}decimals with a comma \(the file shows \d+,\d+, over the shopify preset's dot\)\n/,
    );
  });

  it('Magento (BOM): a weight of 1,125 is 1.125 beside 1,23', async () => {
    const source = await resavedExport(pipeline.dir, 'magento2/catalog_product.csv', {
      encoding: 'utf-8-bom',
      edits: [[1, 'weight', '1.125']],
    });

    const { result, products } = await run(source);

    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(products.get('24-WG085')?.weight).toBe(1.23);
    expect(products.get('24-WG086')?.weight).toBe(1.125);
    expect(result.stdout).toContain(
      "decimals with a comma (the file shows 1,23, over the magento preset's dot)",
    );
  });
});
