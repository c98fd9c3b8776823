import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { catalogRows, parseCsv } from '../support/catalog.js';
import { runCli } from '../support/cli.js';
import { bySku, MAIN_SELLER, requestCounts, usePipeline } from '../support/pipeline.js';

describe('sources and rows at the edges of a run', () => {
  const pipeline = usePipeline();

  it('reads the catalog from standard input with `run -`', async () => {
    const rows = catalogRows(7);
    const csv = stringify(rows, { header: true, columns: ['sku', 'name', 'price'] });

    const result = await runCli(['run', '-'], pipeline.env, csv);

    expect(result.code).toBe(0);
    expect(result.stdout).toContain('(standard input)');
    expect(bySku(pipeline.products()).size).toBe(7);
  });

  it('with a header-only source, writes nothing and lists every remote product as missing', async () => {
    const ids = pipeline.sandbox.seedProducts(MAIN_SELLER, [
      { sku: 'A', name: 'A', price: 1 },
      { sku: 'B', name: 'B', price: 2 },
    ]);
    const source = await pipeline.csv('empty.csv', [], ['sku', 'name', 'price']);
    const report = join(pipeline.dir, 'report.csv');

    const result = await pipeline.cli(['run', source, '--report', report]);

    expect(result.code).toBe(0);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
    expect(parseCsv(await pipeline.readText('report.csv'))).toEqual([
      { row: '', key: 'A', action: 'missing', product_id: ids[0], status: 'ok', error: '', note: '' },
      { row: '', key: 'B', action: 'missing', product_id: ids[1], status: 'ok', error: '', note: '' },
    ]);
  });

  it('reports a key repeated in the same source on the later row, and sends the first', async () => {
    const rows = [
      { sku: 'DUP', name: 'First', price: '1' },
      { sku: 'OTHER', name: 'Other', price: '2' },
      { sku: 'DUP', name: 'Second', price: '3' },
    ];
    const report = join(pipeline.dir, 'report.csv');

    const result = await pipeline.cli(['run', await pipeline.csv('dup.csv', rows), '--report', report]);

    expect(result.code).toBe(1);
    expect(pipeline.products()).toHaveLength(2);
    expect(bySku(pipeline.products()).get('DUP')?.name).toBe('First');
    expect(parseCsv(await pipeline.readText('report.csv'))[2]).toMatchObject({
      row: '3',
      key: 'DUP',
      action: 'invalid',
      status: 'failed',
      error: expect.stringMatching(/row 1/),
    });
  });

  it('creates again a product that was deleted on the marketplace since the last run', async () => {
    const source = await pipeline.csv('catalog.csv', catalogRows(5));
    await pipeline.cli(['run', source]);
    const gone = pipeline.products().find((product) => product.sku === 'SKU-00003')!;
    pipeline.sandbox.deleteProduct(MAIN_SELLER, String(gone.id));
    pipeline.sandbox.resetStats();

    const result = await pipeline.cli(['run', source]);

    expect(result.code).toBe(0);
    expect(result.stdout).toContain('rows      5: 1 created, 0 updated, 4 unchanged');
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 1, updates: 0 });
    expect(bySku(pipeline.products()).size).toBe(5);
  });

  it('addresses a product by the id column of the generic preset', async () => {
    const [id] = pipeline.sandbox.seedProducts(MAIN_SELLER, [{ sku: 'BY-ID', name: 'Old', price: 4 }]);
    const source = await pipeline.csv(
      'by-id.csv',
      [{ id: id!, sku: 'BY-ID', name: 'New', price: '4' }],
      ['id', 'sku', 'name', 'price'],
    );

    const result = await pipeline.cli(['run', source]);

    expect(result.code).toBe(0);
    expect(pipeline.sandbox.requests().filter((request) => request.method === 'PUT')).toEqual([
      expect.objectContaining({ query: { id }, body: { name: 'New' } }),
    ]);
    expect(pipeline.products()).toHaveLength(1);
  });
});
