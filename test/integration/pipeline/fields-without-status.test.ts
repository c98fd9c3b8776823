import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { REAL_FIXTURES_DIR } from '../../support/real-fixtures-dir.js';
import { parseCsv } from '../support/catalog.js';
import { bySku, MAIN_SELLER, requestCounts, usePipeline } from '../support/pipeline.js';

/**
 * Shopify's own product template (fixtures/real/shopify-template, see SOURCES.md): a shirt sold
 * (`active`), jeans in three sizes `draft` (PNT_DEN_285, 305 and 405, stock 20, 15 and 10: their
 * Status on the handle's first row only) and a hat `archived` (HAT_GRY_275).
 */
const TEMPLATE = 'shopify-template/product_template.csv';
const NOT_CREATED = (says: string) =>
  `not sold in the source (${says}) and status is not among the fields sent (--fields): not created, so that it does not go live`;
const KEPT = (says: string) =>
  `not sold in the source (${says}): status not sent (--fields), left as the marketplace has it`;
const DRAFT = 'Shopify Status draft';
const NOT_SOLD = ['PNT_DEN_285', 'PNT_DEN_305', 'PNT_DEN_405', 'HAT_GRY_275'];

describe('--fields without status, on rows the source does not sell (the real Shopify template)', () => {
  const pipeline = usePipeline();

  /** The template as cells, edited by `edit` (a row's cells by SKU), less the rows of `without`, as `name`.csv. */
  async function template(
    name: string,
    edit: (row: (sku: string) => string[], column: (name: string) => number) => void = () => {},
    without?: string,
  ) {
    const [header = [], ...rows] = parse(await readFile(join(REAL_FIXTURES_DIR, TEMPLATE), 'utf8'), {
      relax_column_count: true,
    }) as string[][];
    const column = (title: string) => header.indexOf(title);
    const sku = column('Variant SKU');
    edit((wanted) => {
      const row = rows.find((cells) => cells[sku] === wanted);
      if (!row) throw new Error(`no row of ${wanted} in the template`);
      return row;
    }, column);
    const path = join(pipeline.dir, `${name}.csv`);
    await writeFile(path, stringify([header, ...rows.filter((cells) => cells[sku] !== without)]));
    return path;
  }

  async function run(source: string, ...flags: string[]) {
    pipeline.sandbox.resetStats();
    const report = `${source}.report`;
    const result = await pipeline.cli(['run', source, '--report', report, ...flags]);
    const lines = parseCsv(await readFile(report, 'utf8'));
    const puts = pipeline.sandbox.requests().filter((request) => request.method === 'PUT');
    return { ...result, lines, puts, counts: requestCounts(pipeline.sandbox.stats()) };
  }
  const line = (lines: Record<string, string>[], key: string) =>
    lines.find((entry) => entry.key === key && entry.action !== 'merged');
  const jeans = () => bySku(pipeline.products()).get('PNT_DEN_305');
  const stockOf305 = (quantity: string) =>
    template(`stock-${quantity}`, (row, column) => {
      row('PNT_DEN_305')[column('Variant Inventory Qty')] = quantity;
    });

  it('updates the stock of a product that exists as a draft, its status untouched; a dry run plans the same', async () => {
    expect((await run(await template('first'))).code).toBe(0);
    expect(jeans()).toMatchObject({ quantity: 15, status: 'draft' });
    const copy = await stockOf305('7');

    const dry = await run(copy, '--fields', 'price,quantity', '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.counts).toMatchObject({ creates: 0, updates: 0 });
    expect(line(dry.lines, 'PNT_DEN_305')).toMatchObject({ action: 'update', status: 'planned', error: '' });

    const stock = await run(copy, '--fields', 'price,quantity');

    expect(stock.code).toBe(0);
    expect(stock.puts.map((put) => put.body)).toEqual([{ quantity: 7 }]);
    expect(stock.counts).toMatchObject({ creates: 0, updates: 1 });
    expect(line(stock.lines, 'PNT_DEN_305')).toMatchObject({
      action: 'update',
      status: 'ok',
      error: '',
      note: expect.stringContaining(KEPT(DRAFT)),
    });
    for (const key of ['PNT_DEN_285', 'PNT_DEN_405'])
      expect(line(stock.lines, key)).toMatchObject({
        action: 'unchanged',
        note: expect.stringContaining(KEPT(DRAFT)),
      });
    expect(line(stock.lines, 'HAT_GRY_275')).toMatchObject({
      action: 'unchanged',
      note: expect.stringContaining(KEPT('Shopify Status archived')),
    });
    expect(jeans()).toMatchObject({ quantity: 7, status: 'draft' });
    expect(bySku(pipeline.products()).get('HAT_GRY_275')).toMatchObject({ status: 'archived' });
  });

  it('creates none of them where they do not exist, each skipped with its reason, in a dry run too', async () => {
    const source = await template('new');
    const fields = ['--fields', 'sku,name,price,quantity'];

    const dry = await run(source, ...fields, '--dry-run');
    const sent = await run(source, ...fields);

    for (const result of [dry, sent]) {
      expect(result.code).toBe(0);
      for (const key of NOT_SOLD)
        expect(line(result.lines, key)).toMatchObject({
          action: 'skipped',
          status: 'ok',
          product_id: '',
          error: NOT_CREATED(key === 'HAT_GRY_275' ? 'Shopify Status archived' : DRAFT),
        });
    }
    expect(line(dry.lines, 'SRT_COT_111')).toMatchObject({ action: 'create', status: 'planned' });
    expect(line(sent.lines, 'SRT_COT_111')).toMatchObject({ action: 'create', status: 'ok' });
    const skus = pipeline.products().map((product) => product.sku);
    expect(skus).toHaveLength(12);
    expect(skus.filter((sku) => NOT_SOLD.includes(String(sku)))).toEqual([]);
  });

  it('--only-published still leaves them out entirely: the stock is not sent', async () => {
    expect((await run(await template('first'))).code).toBe(0);

    const stock = await run(await stockOf305('7'), '--fields', 'price,quantity', '--only-published');

    expect(stock.code).toBe(0);
    expect(stock.counts).toMatchObject({ creates: 0, updates: 0 });
    expect(line(stock.lines, 'PNT_DEN_305')).toMatchObject({
      action: 'skipped',
      error: `not sold in the source (${DRAFT}): left out (--only-published)`,
    });
    expect(jeans()).toMatchObject({ quantity: 15, status: 'draft' });
  });

  it('with --missing: an updated product is not gone from the source, and is not deactivated', async () => {
    expect((await run(await template('first'))).code).toBe(0);

    const stock = await run(await stockOf305('7'), '--fields', 'price,quantity', '--missing', 'quantity=0');

    expect(stock.code).toBe(0);
    expect(stock.puts.map((put) => put.body)).toEqual([{ quantity: 7 }]);
    expect(
      stock.lines.filter((entry) => entry.action === 'deactivate' || entry.action === 'missing'),
    ).toEqual([]);
    expect(line(stock.lines, 'PNT_DEN_305')?.error).toBe('');
    expect(bySku(pipeline.products()).get('PNT_DEN_285')).toMatchObject({ quantity: 20, status: 'draft' });
    expect(jeans()).toMatchObject({ quantity: 7, status: 'draft' });
  });

  it('a product --missing deactivated comes back not sold: its former status is not put back, it stays off sale', async () => {
    // Made by hand on the marketplace, live; matched by its SKU and written without status.
    pipeline.sandbox.seedProducts(MAIN_SELLER, [
      { sku: 'HAT_GRY_275', name: 'Grey hat', price: 17.99, quantity: 45, status: 'active' },
    ]);
    const hatSold = await template('sold', (row, column) => {
      row('HAT_GRY_275')[column('Status')] = 'active';
    });
    expect((await run(hatSold, '--fields', 'sku,name,price,quantity')).code).toBe(0);
    const hat = () => bySku(pipeline.products()).get('HAT_GRY_275');
    expect(hat()).toMatchObject({ status: 'active', quantity: 50 });
    const missing = ['--missing', 'status=archived', '--max-missing', '1'];
    const gone = await run(await template('gone', undefined, 'HAT_GRY_275'), ...missing);
    expect(gone.code).toBe(0);
    expect(line(gone.lines, 'HAT_GRY_275')).toMatchObject({ action: 'deactivate', status: 'ok' });
    expect(hat()).toMatchObject({ status: 'archived' });

    // Back in the file, archived in the store, its stock changed: the stock goes, the status stays.
    const back = await run(
      await template('back', (row, column) => {
        row('HAT_GRY_275')[column('Variant Inventory Qty')] = '40';
      }),
      '--fields',
      'price,quantity',
      ...missing,
    );

    expect(back.code).toBe(0);
    expect(back.puts.map((put) => put.body)).toEqual([{ quantity: 40 }]);
    expect(line(back.lines, 'HAT_GRY_275')).toMatchObject({
      action: 'update',
      status: 'ok',
      note: expect.not.stringContaining('reactivated'),
    });
    expect(hat()).toMatchObject({ status: 'archived', quantity: 40 });

    // Sold again: back as any product that returns, its deactivation remembered until then.
    const sold = await run(hatSold, ...missing);
    expect(sold.code).toBe(0);
    expect(line(sold.lines, 'HAT_GRY_275')).toMatchObject({
      action: 'update',
      note: expect.stringContaining('reactivated'),
    });
    expect(hat()).toMatchObject({ status: 'active', quantity: 50 });
  });
});
