import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { startsLikeFormula, unguardCell } from '../../src/csv-guard.js';
import { runIdOf } from '../integration/support/cli.js';
import { MAIN_SELLER, requestCounts, usePipeline } from '../integration/support/pipeline.js';

/**
 * Issue 32, item 6: the formula guard looked at a cell's start only. A SKU `X;=1+2;` was written
 * unquoted in a `,` report, so a spreadsheet whose locale separates with `;` read a cell `=1+2`
 * (and the converse for `;` files). Now a cell holding any of , ; tab | is quoted, and a formula
 * start after such a separator is neutralised as a leading one is: `X;'=1+2;`.
 */

/** Every cell a spreadsheet would see in `text` if its locale split each line at `separator`. */
function cellsIn(text: string, separator: string): string[] {
  return text.split('\n').flatMap((line) => line.split(separator));
}

/** The cells of `text`, split at any separator, that a spreadsheet would run as a formula. */
function formulas(text: string): string[] {
  return [',', ';', '\t', '|']
    .flatMap((separator) => cellsIn(text, separator))
    .map((cell) => cell.replace(/^"/, ''))
    .filter(startsLikeFormula);
}

const RISKY = ['X;=1+2;', 'Y|@SUM(A1)', 'Z\t+1', 'W,-2+3+cmd'];

describe("a formula after the other locale's separator", () => {
  const pipeline = usePipeline();

  it('a `,` report and a products export hold no formula in any locale, and the export imports back with no write', async () => {
    const source = join(pipeline.dir, 'catalog.csv');
    const lines = RISKY.map((sku, i) => `"${sku}","name ${i};=HYPERLINK(""http://evil.example"")",${i + 1}`);
    await writeFile(source, `sku,name,price\n${lines.join('\n')}\n`);

    const run = await pipeline.cli(['run', source, '--report', join(pipeline.dir, 'report.csv')]);
    expect(run.code).toBe(0);
    expect(pipeline.products(MAIN_SELLER).map((p) => p.sku)).toEqual(RISKY);
    const report = await pipeline.readText('report.csv');
    expect(formulas(report)).toEqual([]);
    expect(report).toContain(`"X;'=1+2;"`);

    const out = join(pipeline.dir, 'products.csv');
    expect((await pipeline.cli(['products', 'export', '--out', out])).code).toBe(0);
    expect(formulas(await readFile(out, 'utf8'))).toEqual([]);
    pipeline.sandbox.resetStats();
    const again = await pipeline.cli(['run', out]);
    expect(again.code).toBe(0);
    const counts = requestCounts(pipeline.sandbox.stats());
    expect({ creates: counts.creates, updates: counts.updates }).toEqual({ creates: 0, updates: 0 });
  });

  it('a `;` file of failed rows holds no formula in a `,` locale, and reads back as the source held it', async () => {
    const source = join(pipeline.dir, 'catalog.csv');
    await writeFile(source, 'sku;name;price\nA-1;Alpha;9,5\n"B-2";"X,=1+2,";not a price\n');
    const run = await pipeline.cli(['run', source]);
    expect(run.code).toBe(1);

    const out = join(pipeline.dir, 'failed.csv');
    const report = await pipeline.cli(['report', runIdOf(run.stdout), '--failed-only', '--out', out]);
    expect(report.code).toBe(0);
    const text = await readFile(out, 'utf8');
    expect(formulas(text)).toEqual([]);
    expect(text).toContain(`"X,'=1+2,"`);
    const [header, row] = parse(text, { delimiter: ';' }) as string[][];
    expect(header).toEqual(['sku', 'name', 'price', 'error']);
    expect(row?.slice(0, 3)).toEqual(['B-2', "X,'=1+2,", 'not a price']);
    expect(unguardCell(row?.[1] ?? '')).toBe('X,=1+2,');
  });
});
