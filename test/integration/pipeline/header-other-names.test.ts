import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bySku, usePipeline } from '../support/pipeline.js';

// A generic CSV's very common header `sku,name,price,stock`: `stock` went out as a text field of its
// own, the product's quantity was never written, exit 0, and the summary said nothing of it.
describe("a generic header that names a product field by another platform's word, or misspelt", () => {
  const pipeline = usePipeline();

  async function source(name: string, text: string) {
    const path = join(pipeline.dir, name);
    await writeFile(path, text);
    return path;
  }

  it('reads stock as the quantity: the product gets quantity 3 and no stock field', async () => {
    const result = await pipeline.cli([
      'run',
      await source('stock.csv', 'sku,name,price,stock\nA-1,Mug,5,3\n'),
    ]);

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('columns read as product fields: stock as quantity');
    expect(result.stdout).toContain('rows      1: 1 created, 0 updated, 0 unchanged, 0 invalid, 0 failed');
    expect(bySku(pipeline.products()).get('A-1')).toEqual({ sku: 'A-1', name: 'Mug', price: 5, quantity: 3 });
  });

  it('sends quantiy under its own name, and the summary says it is near quantity and how to read it', async () => {
    const result = await pipeline.cli([
      'run',
      await source('quantiy.csv', 'sku,name,price,quantiy\nA-1,Mug,5,3\n'),
    ]);

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      'columns sent under their own name, near a product field: quantiy (quantity?): rename it, or read it with a mapping file (quantity: quantiy; docs/sources.md)',
    );
    expect(bySku(pipeline.products()).get('A-1')).toEqual({
      sku: 'A-1',
      name: 'Mug',
      price: 5,
      quantiy: '3',
    });
  });

  it("says columns near another platform's word, and a row with no name points at them", async () => {
    // Before: no hint, and the row `missing name for a new product` with nothing pointing at Titel.
    const report = join(pipeline.dir, 'w3-report.csv');
    const result = await pipeline.cli([
      'run',
      await source('w3.csv', 'sku,Stok,Titel,Qtty,EAN13,Product Name,price\nW1,5,a,5,4006381333931,x,1.00\n'),
      '--report',
      report,
    ]);

    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toContain(
      'columns sent under their own name, near a product field: Stok (stock → quantity?), Titel (title → name?), Qtty (qty → quantity?), EAN13 (ean → barcode?), Product Name (name?): rename it, or read it with a mapping file (quantity: Stok; docs/sources.md)',
    );
    expect(await pipeline.readText('w3-report.csv')).toContain(
      'missing name for a new product (no name column; near it: Titel (title → name?), Product Name (name?))',
    );
    expect(pipeline.products()).toEqual([]);
  });
});
