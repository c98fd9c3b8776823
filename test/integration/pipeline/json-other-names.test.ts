import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bySku, requestCounts, usePipeline } from '../support/pipeline.js';

// The generic preset read another platform's word (`stock`, `qty`, `ean`) as its field only where the
// FIRST record of a JSON or NDJSON source had it. JSON exporters leave empty keys out, so the first
// record often lacks them: the others were sent `"stock":"4"` and `"ean":"…"` as text fields, the
// quantity and barcode never written, exit 0, and the summary said nothing. `--missing stock=0` was
// refused on nights whose first record had `stock` and taken on the others.
describe("a JSON source whose later records bring another platform's word for a field", () => {
  const pipeline = usePipeline();

  async function source(name: string, text: string) {
    const path = join(pipeline.dir, name);
    await writeFile(path, text);
    return path;
  }

  it('NDJSON: reads stock and ean as quantity and barcode in every record, and says so', async () => {
    const path = await source(
      'p.ndjson',
      '{"sku":"P1","name":"a","price":1}\n' +
        '{"sku":"P2","name":"b","price":1,"stock":4}\n' +
        '{"sku":"P3","name":"c","price":1,"stock":7,"ean":"0012345678905"}\n',
    );
    const result = await pipeline.cli(['run', path]);

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('columns read as product fields: stock as quantity, ean as barcode');
    const products = bySku(pipeline.products());
    expect(products.get('P2')).toEqual({ sku: 'P2', name: 'b', price: 1, quantity: 4 });
    expect(products.get('P3')).toEqual({
      sku: 'P3',
      name: 'c',
      price: 1,
      quantity: 7,
      barcode: '0012345678905',
    });
  });

  it('JSON array: reads qty as quantity though the first item lacks it', async () => {
    const path = await source(
      'p.json',
      '[{"sku":"P4","name":"d","price":2},{"sku":"P5","name":"e","price":2,"qty":4}]\n',
    );
    const result = await pipeline.cli(['run', path]);

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('columns read as product fields: qty as quantity');
    expect(bySku(pipeline.products()).get('P5')).toEqual({ sku: 'P5', name: 'e', price: 2, quantity: 4 });
  });

  it('--missing stock=0 is refused whether or not the first record has stock, nothing sent', async () => {
    const path = await source(
      'p.ndjson',
      '{"sku":"P1","name":"a","price":1}\n{"sku":"P2","name":"b","price":1,"stock":4}\n',
    );
    const result = await pipeline.cli(['run', path, '--missing', 'stock=0']);

    expect(result.stderr.trim()).toBe(
      "catalog-sync: --missing: stock: this source's stock column is read as quantity: name quantity",
    );
    expect(result.code).toBe(2);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
  });
});
