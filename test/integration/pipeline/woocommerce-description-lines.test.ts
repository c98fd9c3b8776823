import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { REAL_FIXTURES_DIR } from '../../support/real-fixtures-dir.js';
import { bySku, usePipeline } from '../support/pipeline.js';

const WOO = join(REAL_FIXTURES_DIR, 'woocommerce/sample_products.csv');

/**
 * A real WooCommerce export whose beanie has a description of two lines, written as the exporter
 * (3.5.4+) writes one: the newline as the two characters `\n`. The real exports hold none, so the
 * cell is put in here, in the test's own copy.
 */
describe('a WooCommerce export with a description of several lines', () => {
  const pipeline = usePipeline();

  it('lands with its lines, not with the two characters `\\n` between them', async () => {
    const [header = [], ...rows] = parse(await readFile(WOO, 'utf8'), {
      bom: true,
      relax_column_count: true,
    }) as string[][];
    const sku = header.indexOf('SKU');
    const description = header.indexOf('Description');
    const beanie = rows.find((cells) => cells[sku] === 'woo-beanie');
    expect(beanie).toBeDefined();
    beanie![description] = '<p>Line one</p>\\n<p>Line two</p>';
    const file = join(pipeline.dir, 'lines.csv');
    await writeFile(file, stringify([header, ...rows]));

    const result = await pipeline.cli(['run', file, '--report', join(pipeline.dir, 'r.csv')]);

    expect(result.code).toBe(0);
    expect(bySku(pipeline.products()).get('woo-beanie')?.description).toBe(
      '<p>Line one</p>\n<p>Line two</p>',
    );
  });
});
