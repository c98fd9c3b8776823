import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../support/catalog.js';
import { bySku, requestCounts, usePipeline } from '../support/pipeline.js';

// The catalog opened in a spreadsheet and saved again: a 12-digit SKU comes back as `1.23457E+11`.
// Read as a key, it matched nothing and the product was created a second time under it.
describe('a SKU a spreadsheet turned into scientific notation', () => {
  const pipeline = usePipeline();

  it('is an invalid row, in the report, and no second product is created', async () => {
    const first = join(pipeline.dir, 'erp.csv');
    await writeFile(first, 'sku,name,price\n123456789012,a,1\n');
    const created = await pipeline.cli(['run', first]);
    expect(created.code, created.stderr).toBe(0);

    const saved = join(pipeline.dir, 'excel.csv');
    await writeFile(saved, 'sku,name,price\r\n1.23457E+11,a,1\r\n');
    const report = join(pipeline.dir, 'report.csv');
    const second = await pipeline.cli(['run', saved, '--report', report]);

    // Exit 1: a row is invalid (README, Exit codes).
    expect(second.code, second.stderr).toBe(1);
    expect(second.stdout).toContain('rows      1: 0 created, 0 updated, 0 unchanged, 1 invalid, 0 failed');
    expect(parseCsv(await pipeline.readText('report.csv'))).toEqual([
      {
        row: '1',
        key: '1.23457E+11',
        action: 'invalid',
        product_id: '',
        status: 'failed',
        error:
          'sku "1.23457E+11" was turned into a number by a spreadsheet (scientific notation, digits lost): export the column as text',
        note: '',
      },
      // The product the row was meant for is not in the source under its key: listed, untouched.
      {
        row: '',
        key: '123456789012',
        action: 'missing',
        product_id: expect.any(String),
        status: 'ok',
        error: '',
        note: '',
      },
    ]);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 1, updates: 0 });
    expect([...bySku(pipeline.products()).keys()]).toEqual(['123456789012']);
  });
});
