import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bySku, requestCounts, usePipeline } from '../support/pipeline.js';

// NDJSON numbers were read through JSON.parse: a SKU written 1.50 became 1.5 and 17 digits lost
// their last, so the products a CSV made were created again and reported missing. A JSON array
// kept the text as written; NDJSON now does too.
describe('an NDJSON line whose SKU is a JSON number', () => {
  const pipeline = usePipeline();

  it('finds the product a CSV row of the same SKU made: nothing created, nothing missing', async () => {
    const csv = join(pipeline.dir, 'catalog.csv');
    await writeFile(csv, 'sku,name,price\n1.50,b,3.10\n90071992547409931,c,4.00\n');
    const first = await pipeline.cli(['run', csv]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('rows      2: 2 created,');

    const ndjson = join(pipeline.dir, 'catalog.ndjson');
    await writeFile(
      ndjson,
      '{"sku":1.50,"name":"b","price":"3.10"}\n{"sku":90071992547409931,"name":"c","price":4.00}\n',
    );
    const second = await pipeline.cli(['run', ndjson, '--report', join(pipeline.dir, 'report.csv')]);

    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('format ndjson');
    expect(second.stdout).toContain('rows      2: 0 created, 0 updated, 2 unchanged, 0 invalid, 0 failed');
    expect(await pipeline.readText('report.csv')).not.toContain('missing');
    expect(requestCounts(pipeline.sandbox.stats()).creates).toBe(2);
    expect([...bySku(pipeline.products()).keys()].sort()).toEqual(['1.50', '90071992547409931']);
  });
});
