import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../support/catalog.js';
import { type Pipeline, requestCounts, usePipeline } from '../support/pipeline.js';

const BASE = 'sku,name,price\nA,Apple,1\nB,Banana,2\nC,Cherry,3\n';

/** Writes `text` as `name` and runs it (plus `args`) with a report: the result and the report's rows. */
function runner(pipeline: Pipeline) {
  return async (name: string, text: string, ...args: string[]) => {
    await writeFile(join(pipeline.dir, name), text);
    const report = join(pipeline.dir, `${name}.report.csv`);
    const result = await pipeline.cli(['run', join(pipeline.dir, name), '--report', report, ...args]);
    const rows = parseCsv(await pipeline.readText(`${name}.report.csv`));
    return { ...result, rows };
  };
}

// An ERP export whose own ID column is not the marketplace's: read as the product id (docs/sources.md),
// its row 1 rewrote product 1 (Apple, SKU A) to SKU B, which product 2 has: two products with SKU B,
// with exit 0. The next run of the base catalog then sent rows A and B both to product 1.
describe('an id column that names a product whose SKU another product has', () => {
  const pipeline = usePipeline();
  const run = runner(pipeline);

  /** Each product as id → sku and name. */
  const products = () =>
    pipeline
      .products()
      .map((p) => `${p.id}:${p.sku}:${p.name}`)
      .sort();

  /** The base catalog once; resolves to the ids the sandbox gave A, B and C. */
  async function base() {
    const first = await run('base.csv', BASE);
    expect(first.code, first.stderr).toBe(0);
    const id = (sku: string) => String(pipeline.products().find((p) => p.sku === sku)?.id);
    return { a: id('A'), b: id('B'), c: id('C') };
  }

  it.each([
    ['a CSV with ID and SKU columns', 'erp.csv', (a: string) => `ID,SKU,Name,Price\n${a},B,Banana v2,9\n`],
    ['a JSON array', 'erp.json', (a: string) => `[{"id":${a},"sku":"B","name":"Banana v2","price":9}]`],
  ])(
    'refuses the row (%s), writes nothing, and the next run finds every product as it was',
    async (_, name, text) => {
      const { a, b, c } = await base();
      const before = products();
      pipeline.sandbox.resetStats();

      const erp = await run(name, text(a));

      expect(erp.code).toBe(1);
      expect(erp.stdout).toContain('rows      1: 0 created, 0 updated, 0 unchanged, 1 invalid, 0 failed');
      expect(erp.rows[0]).toMatchObject({
        row: '1',
        key: 'B',
        action: 'invalid',
        status: 'failed',
        error: `id ${a} is product "A" on the marketplace, and sku B is product ${b}: the id column may not be the marketplace's ids`,
      });
      expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
      expect(products()).toEqual(before);

      const again = await run('again.csv', BASE);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toContain('rows      3: 0 created, 0 updated, 3 unchanged, 0 invalid, 0 failed');
      expect(again.rows.map((row) => `${row.key}:${row.product_id}:${row.action}`)).toEqual([
        `A:${a}:unchanged`,
        `B:${b}:unchanged`,
        `C:${c}:unchanged`,
      ]);
      expect(products()).toEqual(before);
    },
  );

  it('still renames a SKU through the id column when no other product has the new one', async () => {
    const { a } = await base();

    const rename = await run('rename.csv', `id,sku,name\n${a},Z,Apple renamed\n`);

    expect(rename.code, rename.stderr).toBe(0);
    expect(rename.rows[0]).toMatchObject({
      key: 'Z',
      action: 'update',
      product_id: a,
      status: 'ok',
      error: '',
    });
    const skus = pipeline.products().map((p) => p.sku);
    expect(skus.sort()).toEqual(['B', 'C', 'Z']);
    expect(pipeline.products().find((p) => String(p.id) === a)).toMatchObject({
      sku: 'Z',
      name: 'Apple renamed',
    });
  });

  it('refuses a rename whose old SKU another row of the source still writes: one row per product', async () => {
    const { a } = await base();

    const both = await run('both.csv', `id,sku,name,price\n${a},Z,Apple renamed,1\n,A,Apple again,4\n`);

    expect(both.code).toBe(1);
    expect(both.rows.find((row) => row.row === '1')).toMatchObject({
      action: 'invalid',
      error: `id ${a} is product "A" on the marketplace, and the source has a row with sku A too: two rows may not write one product`,
    });
    expect(both.rows.find((row) => row.row === '2')).toMatchObject({
      action: 'update',
      product_id: a,
      status: 'ok',
    });
    expect(pipeline.products().find((p) => String(p.id) === a)).toMatchObject({
      sku: 'A',
      name: 'Apple again',
      price: 4,
    });
  });

  it('with --incremental (no list read), refuses it from what the id map records', async () => {
    const first = await run('base.csv', BASE, '--incremental');
    expect(first.code, first.stderr).toBe(0);
    // A second incremental run reads no product: what it knows is the tool's record.
    const id = (sku: string) => String(pipeline.products().find((p) => p.sku === sku)?.id);
    const before = products();
    pipeline.sandbox.resetStats();

    const erp = await run('erp.csv', `ID,SKU,Name,Price\n${id('A')},B,Banana v2,9\n`, '--incremental');

    expect(erp.code).toBe(1);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ lists: 0, creates: 0, updates: 0 });
    expect(erp.rows[0]).toMatchObject({
      action: 'invalid',
      error: `id ${id('A')} is product "A" in this tool's record, and sku B is product ${id('B')}: the id column may not be the marketplace's ids`,
    });
    expect(products()).toEqual(before);

    const rename = await run('rename.csv', `id,sku\n${id('A')},Z\n`, '--incremental');
    expect(rename.code, rename.stderr).toBe(0);
    expect(rename.rows[0]).toMatchObject({ key: 'Z', action: 'update', status: 'ok' });
    expect(
      pipeline
        .products()
        .map((p) => p.sku)
        .sort(),
    ).toEqual(['B', 'C', 'Z']);
  });

  it('with --incremental, gives a product a SKU the id map still holds for a product renamed since', async () => {
    await run('base.csv', BASE, '--incremental');
    const id = (sku: string) => String(pipeline.products().find((p) => p.sku === sku)?.id);
    const [a, b] = [id('A'), id('B')];
    expect((await run('rename.csv', `id,sku\n${a},Z\n`, '--incremental')).code).toBe(0);
    pipeline.sandbox.resetStats();

    // The id map's entry under A is what was sent to product a (Apple, 1): not product b's record.
    const take = await run('take.csv', `id,sku,name,price\n${b},A,Apple,1\n`, '--incremental');

    expect(take.code, take.stderr).toBe(0);
    expect(take.rows[0]).toMatchObject({ key: 'A', action: 'update', product_id: b, status: 'ok' });
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ lists: 0, updates: 1 });
    expect(products()).toEqual([`${a}:Z:Apple`, `${b}:A:Apple`, `${id('C')}:C:Cherry`].sort());
  });

  it('writes one row per product when two keys of a source lead to it (the id map keeps a renamed SKU)', async () => {
    const { a } = await base();
    expect((await run('rename.csv', `id,sku\n${a},Z\n`)).code).toBe(0);

    // Z is product a as listed; A is product a as the id map recorded it before the rename.
    const two = await run('two.csv', 'sku,name,price\nA,Apple,1\nZ,Zed,5\n');

    expect(two.code).toBe(1);
    expect(two.rows.find((row) => row.row === '1')).toMatchObject({ key: 'A', product_id: a, status: 'ok' });
    expect(two.rows.find((row) => row.row === '2')).toMatchObject({
      key: 'Z',
      action: 'invalid',
      error: `product ${a} is row 1's too: two rows may not write one product`,
    });
    const skus = pipeline.products().map((p) => p.sku);
    expect(new Set(skus).size).toBe(skus.length);
  });
});

// An API that does not show the SKU: the products' SKUs are the ones this tool recorded.
describe('an id column against an API that hides the SKU', () => {
  const pipeline = usePipeline({ hideFields: ['sku'] });
  const run = runner(pipeline);

  it('refuses a row whose id names a product recorded under another SKU that another product has', async () => {
    expect((await run('base.csv', BASE)).code).toBe(0);
    const id = (sku: string) => String(pipeline.products().find((p) => p.sku === sku)?.id);
    pipeline.sandbox.resetStats();

    const erp = await run('erp.csv', `ID,SKU,Name,Price\n${id('A')},B,Banana v2,9\n`);

    expect(erp.code).toBe(1);
    expect(erp.rows[0]).toMatchObject({
      action: 'invalid',
      error: `id ${id('A')} is product "A" on the marketplace, and sku B is product ${id('B')}: the id column may not be the marketplace's ids`,
    });
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
    expect(
      pipeline
        .products()
        .map((p) => p.sku)
        .sort(),
    ).toEqual(['A', 'B', 'C']);
  });
});
