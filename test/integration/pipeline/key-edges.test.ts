import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../support/catalog.js';
import { MAIN_SELLER, usePipeline } from '../support/pipeline.js';

// A cell is read without the spaces at its edges (docs/sources.md), and so is a listed SKU: `SP`
// in the file finds the product whose SKU is `SP ` on the marketplace. The PUT then sent `"sku":
// "SP"` with no note, even when the file's cell was `"SP "` too: the seller's SKU changed on the
// marketplace to one their other systems (the ERP, an order import) do not know.

describe('a marketplace SKU with spaces at its edges', () => {
  const pipeline = usePipeline();

  /** Seeds one product per SKU (named Mug, priced 5). */
  function seed(...skus: string[]): string[] {
    return pipeline.sandbox.seedProducts(
      MAIN_SELLER,
      skus.map((sku) => ({ sku, name: 'Mug', price: 5 })),
    );
  }

  /** Runs a CSV of `text` (plus `args`); its report's lines and the PUT bodies it sent. */
  async function sync(text: string, args: string[] = []) {
    pipeline.sandbox.resetStats();
    const path = join(pipeline.dir, 'feed.csv');
    await writeFile(path, text);
    const report = join(pipeline.dir, 'report.csv');
    const result = await pipeline.cli(['run', path, '--report', report, ...args]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const requests = pipeline.sandbox.requests();
    const bodies = (method: string) =>
      requests
        .filter((request) => request.method === method)
        .map((request) => request.body as Record<string, unknown>);
    return {
      lines: parseCsv(await pipeline.readText('report.csv')),
      puts: bodies('PUT'),
      posts: bodies('POST'),
      lists: bodies('GET').length,
    };
  }

  const skus = () => pipeline.products().map((product) => product.sku);

  it.each([
    ['a space at its end', 'SP ', '"SP "', 'a space at its end', 'SP'],
    ['a no-break space at its end', 'NB\u00a0', '"NB\u00a0"', 'a space at its end', 'NB'],
    ['a space at its start', ' LS', '" LS"', 'a space at its start', 'LS'],
  ])(
    '%s: the row whose cell is the same key sends no sku, planned or written, and says so',
    async (_, sku, cell, where, read) => {
      const [id] = seed(sku);
      const shown = sku.replace('\u00a0', '\\u00a0');
      const note = `sku is "${shown}" on the marketplace (${where}): matched as ${read}, kept`;

      const planned = await sync(`sku,name,price\n${cell},Mug,5\n`, ['--dry-run']);
      expect(planned.lines).toEqual([
        { row: '1', key: read, action: 'unchanged', product_id: id, status: 'ok', error: '', note },
      ]);

      const same = await sync(`sku,name,price\n${cell},Mug,5\n`);
      expect(same.puts).toEqual([]);
      expect(same.lines[0]).toMatchObject({ action: 'unchanged', note });

      // A change of another field goes out without the key.
      const renamed = await sync(`sku,name,price\n${cell},Big mug,5\n`);
      expect(renamed.puts).toEqual([{ name: 'Big mug' }]);
      expect(renamed.lines[0]).toMatchObject({ action: 'update', status: 'ok', product_id: id, note });
      expect(skus()).toEqual([sku]);
    },
  );

  it('a row written without the space finds the product and leaves its SKU as the marketplace has it', async () => {
    const [id] = seed('SP ');

    const run = await sync('sku,name,price\nSP,Big mug,5\n');

    expect(run.puts).toEqual([{ name: 'Big mug' }]);
    expect(run.lines).toEqual([
      {
        row: '1',
        key: 'SP',
        action: 'update',
        product_id: id,
        status: 'ok',
        error: '',
        note: 'sku is "SP " on the marketplace (a space at its end): matched as SP, kept',
      },
    ]);
    expect(skus()).toEqual(['SP ']);
    // The next night still sends nothing.
    expect((await sync('sku,name,price\nSP,Big mug,5\n')).puts).toEqual([]);
  });

  it('--incremental records the key as matched: a run relying on the record sends no sku', async () => {
    seed('SP ');

    const read = await sync('sku,name,price\n"SP ",Mug,5\n', ['--incremental']);
    expect(read.puts).toEqual([]);

    const fromRecord = await sync('sku,name,price\n"SP ",Big mug,5\n', ['--incremental']);
    expect(fromRecord.lists).toBe(0);
    expect(fromRecord.puts).toEqual([{ name: 'Big mug' }]);
    expect(skus()).toEqual(['SP ']);
  });

  it("shows a missing product's key as the marketplace has it, its edge space said", async () => {
    const [, id] = seed('KEEP', 'dup ');

    const run = await sync('sku,name,price\nKEEP,Mug,5\n');

    expect(run.lines.find((line) => line.action === 'missing')).toEqual({
      row: '',
      key: 'dup ',
      action: 'missing',
      product_id: id,
      status: 'ok',
      error: '',
      note: 'sku is "dup " on the marketplace (a space at its end)',
    });
    // Quoted in the file: the space is seen in any text view.
    expect(await pipeline.readText('report.csv')).toContain(',"dup ",missing,');
  });
});

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
