import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bySku, requestCounts, usePipeline } from '../support/pipeline.js';

// A spreadsheet's header (`SKU,Name,Price`) against the products an earlier run made from a
// lower-case one: read as written, `Price` went out as a text field and the price never changed,
// while the run said "1 updated".
describe('a header that names the product fields in another case', () => {
  const pipeline = usePipeline();

  it('writes the fields they name: the price changes, and no field named Price appears', async () => {
    const first = await pipeline.cli([
      'run',
      await pipeline.csv('v1.csv', [{ sku: 'A-1', name: 'Shirt', price: '12.50' }]),
    ]);
    expect(first.code, first.stderr).toBe(0);

    const header = join(pipeline.dir, 'v2.csv');
    await writeFile(header, 'SKU,Name,Price\nA-1,Shirt,15.00\n');
    const second = await pipeline.cli(['run', header]);

    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain(
      'columns read as product fields: SKU as sku, Name as name, Price as price',
    );
    expect(second.stdout).toContain('rows      1: 0 created, 1 updated, 0 unchanged, 0 invalid, 0 failed');
    expect(requestCounts(pipeline.sandbox.stats()).creates).toBe(1);
    expect(bySku(pipeline.products()).get('A-1')).toEqual({ sku: 'A-1', name: 'Shirt', price: 15 });
  });
});
