import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../support/catalog.js';
import { usePipeline } from '../support/pipeline.js';

// `String.prototype.trim` strips U+FEFF: a SKU cell `\ufeffZ4` was sent as Z4, unsaid, while every
// other invisible character at a key's edge refuses its row, the character named.
describe('a byte order mark at the edge of a SKU cell', () => {
  const pipeline = usePipeline();

  it("refuses the row naming U+FEFF, while the file's own mark at its very start is read as one", async () => {
    pipeline.sandbox.resetStats();
    const path = join(pipeline.dir, 'feed.csv');
    await writeFile(path, '\ufeffsku,name,price\n\ufeffZ4,Four,4\nZ5\ufeff,Five,5\nZ6,Six,6\n');
    const result = await pipeline.cli(['run', path, '--report', join(pipeline.dir, 'report.csv')]);

    // Exit 1: rows are invalid (README, Exit codes).
    expect(result.code, result.stderr).toBe(1);
    const lines = parseCsv(await pipeline.readText('report.csv'));
    const why = (key: string, where: string) =>
      `sku "${key}" ${where} with an invisible character (U+FEFF byte order mark): it is not the key it looks like; remove the character from the cell (the product made under it is found then, and its sku cleaned)`;
    expect(lines.map(({ key, action, error }) => ({ key, action, error }))).toEqual([
      { key: '\ufeffZ4', action: 'invalid', error: why('\\ufeffZ4', 'starts') },
      { key: 'Z5\ufeff', action: 'invalid', error: why('Z5\\ufeff', 'ends') },
      { key: 'Z6', action: 'create', error: '' },
    ]);
    expect(pipeline.products().map((product) => product.sku)).toEqual(['Z6']);
  });
});
