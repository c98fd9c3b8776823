import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { createMapper } from '../../../src/catalog/index.js';
import { exportRecords } from '../../../src/exports/export-file.js';
import { PRODUCTS_CSV, productCell, productCells, productColumns } from '../../../src/exports/product-csv.js';
import type { SourceRecord } from '../../../src/interfaces.js';
import { writeToFile } from '../../../src/output-file.js';
import { compactEquals, compactValue } from '../../../src/sync/compact-value.js';

async function csvOf(pages: Array<Array<Record<string, unknown>>>, shape = PRODUCTS_CSV): Promise<string> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  async function* list() {
    for (const page of pages) yield page.map((fields) => ({ fields }));
  }
  await exportRecords(list(), shape, { format: 'csv', out, terminal: false });
  return Buffer.concat(chunks).toString('utf8');
}

describe('products export: columns', () => {
  it('puts id first, then the union of fields in code-point order, whatever order the API gave', () => {
    expect(productColumns(['sku', 'name', 'id', 'Zeta', 'price', 'alpha'])).toEqual([
      'id',
      'Zeta',
      'alpha',
      'name',
      'price',
      'sku',
    ]);
    expect(productColumns(['b', 'a'])).toEqual(['a', 'b']);
  });

  it('takes the union over every page: a field met only on a later page is a column too', async () => {
    const text = await csvOf([[{ id: 2, sku: 'A' }], [{ id: 1, sku: 'B', colour: 'red' }]]);

    expect(text).toBe('id,colour,sku\n2,,A\n1,red,B\n');
  });
});

describe('products export: cells', () => {
  it('writes numbers, booleans and strings as text, and leaves null out', () => {
    expect(productCells({ price: 12.5, active: false, name: 'Mug', gone: null })).toEqual({
      price: '12.5',
      active: 'false',
      name: 'Mug',
    });
  });

  it('joins a list field with ", " (an item shown as {name} by its name); other arrays and objects as JSON', () => {
    expect(productCell('tags', ['a', 'b c'])).toBe('a, b c');
    expect(productCell('tags', [{ name: 'sale' }, { name: 'new' }])).toBe('sale, new');
    expect(productCell('images', ['https://x/1.jpg'])).toBe('https://x/1.jpg');
    expect(productCell('variants', ['S', 'M'])).toBe('["S","M"]');
    expect(productCell('attributes', { size: 'L' })).toBe('{"size":"L"}');
  });

  it('reads back through the generic preset as the value the diff compares with the API', async () => {
    const product = {
      sku: 'A',
      name: 'Mug',
      price: 12.5,
      quantity: 3,
      active: true,
      tags: ['a', 'b'],
      attributes: { size: 'L' },
      variants: ['S', 'M'],
    };
    const values = productCells(product);
    const mapper = createMapper({ columns: Object.keys(values) });
    const record: SourceRecord = { row: 1, line: 2, values };
    async function* one() {
      yield record;
    }
    expect.assertions(Object.keys(product).length + 1);
    for await (const row of mapper.map(one())) {
      if (row.kind !== 'upsert') throw new Error(`not an upsert: ${JSON.stringify(row)}`);
      for (const [field, value] of Object.entries(row.fields)) {
        const theirs = compactValue(product[field as keyof typeof product]);
        expect([field, compactEquals(compactValue(value)!, theirs!)]).toEqual([field, true]);
      }
      expect(Object.keys(row.fields).sort()).toEqual(Object.keys(product).sort());
    }
  });

  it('guards a cell that starts like a formula, header and values (orders export too)', async () => {
    const text = await csvOf([[{ id: 1, name: '=HYPERLINK("x")', '@col': '-5%' }]]);

    expect(text).toBe(`id,'@col,name\n1,'-5%,"'=HYPERLINK(""x"")"\n`);
  });
});

describe('an export whose file fails part way (a full disk)', () => {
  it.runIf(existsSync('/dev/full'))('fails in one line and leaves no scratch file behind', async () => {
    const scratchRoot = await mkdtemp(join(tmpdir(), 'export-scratch-'));
    const tmp = process.env.TMPDIR;
    process.env.TMPDIR = scratchRoot;
    try {
      // Enough rows that the CSV waits for the file to drain when the file fails.
      async function* pages() {
        for (let page = 0; page < 20; page++)
          yield Array.from({ length: 500 }, (_, i) => ({
            id: `${page * 500 + i}`,
            fields: { sku: `SKU-${page}-${i}`, name: 'x'.repeat(200), price: 5 },
          }));
      }
      await expect(
        writeToFile('/dev/full', (file) =>
          exportRecords(pages(), PRODUCTS_CSV, { format: 'csv', out: file, terminal: false }),
        ),
      ).rejects.toThrow('cannot write /dev/full: ENOSPC');
      // The file's error may reach the caller before the export's own `finally` has removed its
      // scratch folder: wait for that, as long as a loaded machine needs (not a fixed 50 ms).
      await vi.waitFor(async () => expect(await readdir(scratchRoot)).toEqual([]), { timeout: 10_000 });
    } finally {
      if (tmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmp;
      await rm(scratchRoot, { recursive: true, force: true });
    }
  });
});
