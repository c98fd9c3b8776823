import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { requestCounts, usePipeline } from '../support/pipeline.js';

/**
 * `--fields` lists exactly what is sent: the match field too is sent only when listed
 * (README, Options of `run` and `import`).
 */
describe('run --fields name,price against an API that takes only name and price', () => {
  const pipeline = usePipeline({ acceptFields: ['name', 'price'] });

  it('creates every product without its sku, and a second run is all unchanged with no write', async () => {
    const rows = catalogRows(30);
    // A spreadsheet's float noise: the API keeps at most two decimals, so only 1.57 goes through.
    rows[2]!.price = '1.5699999999999998';
    const source = await pipeline.csv('catalog.csv', rows);

    const first = pipeline.spawn(['run', source, '--fields', 'name,price']);

    expect(await first.exited, first.stderr()).toEqual({ code: 0, signal: null });
    expect(first.stdout()).toContain('rows      30: 30 created, 0 updated, 0 unchanged, 0 invalid, 0 failed');
    const writes = pipeline.sandbox.requests().filter((request) => request.method !== 'GET');
    expect(writes).toHaveLength(30);
    for (const write of writes) expect(Object.keys(write.body as object).sort()).toEqual(['name', 'price']);
    const stored = pipeline.products();
    expect(stored).toHaveLength(30);
    expect(stored.filter((product) => 'sku' in product)).toEqual([]);
    const sent = rows.map((row, i) => [row.name, i === 2 ? 1.57 : Number(row.price)]);
    expect(stored.map((product) => [product.name, product.price])).toEqual(expect.arrayContaining(sent));
    pipeline.sandbox.resetStats();

    const second = pipeline.spawn(['run', source, '--fields', 'name,price']);

    expect(await second.exited, second.stderr()).toEqual({ code: 0, signal: null });
    expect(second.stdout()).toContain(
      'rows      30: 0 created, 0 updated, 30 unchanged, 0 invalid, 0 failed',
    );
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
    expect(pipeline.products()).toHaveLength(30);
  });
});

describe('run --fields price with a new row', () => {
  const pipeline = usePipeline();

  it("says the new product's name is left out by --fields, not missing from the file", async () => {
    const source = await pipeline.csv('catalog.csv', catalogRows(1));
    const report = join(pipeline.dir, 'report.csv');

    const result = await pipeline.cli(['run', source, '--fields', 'price', '--report', report]);

    expect(result.code).toBe(1);
    expect(await pipeline.readText('report.csv')).toContain(
      'invalid,,failed,missing name for a new product (--fields leaves name out)',
    );
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0 });
  });
});
