import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogRows, parseCsv } from '../support/catalog.js';
import { bySku, MAIN_SELLER, requestCounts, usePipeline } from '../support/pipeline.js';

/** A nightly feed as an ERP exports it: the product fields by their own names, 60 in stock each. */
const FEED = catalogRows(5).map((row) => ({ ...row, quantity: '60' }));
const GONE = FEED[4]?.sku ?? '';
const REFUSED = 'catalog-sync: --missing: stock: no product has it; the stock field is quantity';

describe("README's night after night: a product gone from the feed stops selling", () => {
  const pipeline = usePipeline();

  async function firstNight() {
    expect((await pipeline.cli(['run', await pipeline.csv('first.csv', FEED)])).code).toBe(0);
    pipeline.sandbox.resetStats();
    return pipeline.csv('night.csv', FEED.slice(0, 4));
  }

  const writes = () => {
    const { creates, updates } = requestCounts(pipeline.sandbox.stats());
    return creates + updates;
  };

  it("the README's job: missing: {stock: 0} is refused with nothing written; {quantity: 0} stops the sale", async () => {
    const night = await firstNight();
    await mkdir(join(pipeline.dir, 'jobs'));
    const job = join(pipeline.dir, 'jobs', 'nightly.yml');
    const report = join(pipeline.dir, 'nightly.csv');
    const jobFile = (missing: string) => `source: ${night}\nmissing: ${missing}\nreport: ${report}\n`;

    await writeFile(job, jobFile('{stock: 0}'));
    const refused = await pipeline.cli(['run', '--job', job]);
    expect(refused.code).toBe(2);
    // Named where it was written: the cron line has no --missing.
    expect(refused.stderr.trim()).toBe(REFUSED.replace('--missing:', 'missing in nightly.yml:'));
    expect(writes()).toBe(0);
    expect(bySku(pipeline.products()).get(GONE)).toMatchObject({ quantity: 60 });

    await writeFile(job, jobFile('{quantity: 0}'));
    const result = await pipeline.cli(['run', '--job', job]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('1 deactivated');
    const puts = pipeline.sandbox.requests().filter((request) => request.method === 'PUT');
    expect(puts.map((request) => request.body)).toEqual([{ quantity: 0 }]);
    const products = bySku(pipeline.products());
    expect(products.get(GONE)).toMatchObject({ quantity: 0 });
    expect(products.get(GONE)).not.toHaveProperty('stock');
    for (const row of FEED.slice(0, 4)) expect(products.get(row.sku)).toMatchObject({ quantity: 60 });
    const lines = parseCsv(await pipeline.readText('nightly.csv')).filter((line) => line.row === '');
    expect(lines.map((line) => [line.key, line.action, line.status])).toEqual([[GONE, 'deactivate', 'ok']]);
  });

  it.each([
    ['--missing stock=0', ['--missing', 'stock=0']],
    ['--missing stock=0 --dry-run', ['--missing', 'stock=0', '--dry-run']],
  ])('%s is refused in one line, exit 2, nothing written', async (_, flags) => {
    const night = await firstNight();
    const before = pipeline.products();

    const result = await pipeline.cli(['run', night, ...flags]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(REFUSED);
    expect(result.stdout).toBe('');
    expect(writes()).toBe(0);
    expect(pipeline.products()).toEqual(before);
  });

  it.each([
    // Fields that act on what is sent: a name the run does not send is refused before any request.
    [
      ['--first', 'price,stock'],
      '--first: stock: this run does not send it (the source gives sku, name, price, quantity); the stock field is quantity',
    ],
    [
      ['--create-only-fields', 'barcod'],
      '--create-only-fields: barcod: this run does not send it (the source gives sku, name, price, quantity); the nearest field is barcode',
    ],
    [
      ['--keep-remote-edits', 'nme'],
      '--keep-remote-edits: nme: this run does not send it (the source gives sku, name, price, quantity); the nearest field is name',
    ],
    [
      ['--fields', 'sku,prise'],
      '--fields: prise: this source gives no such field; the nearest field is price (this source gives: sku, name, price, quantity)',
    ],
  ])('%j names no field: one line, exit 2, nothing written', async (flags, line) => {
    const night = await firstNight();
    const result = await pipeline.cli(['run', night, ...flags]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(`catalog-sync: ${line}`);
    expect(writes()).toBe(0);
  });

  it('a field of the marketplace that its products show is taken: --missing visible=no', async () => {
    pipeline.sandbox.seedProducts(
      MAIN_SELLER,
      FEED.map((row) => ({
        sku: row.sku,
        name: row.name,
        price: Number(row.price),
        quantity: 60,
        visible: 'yes',
      })),
    );
    // Matched and written once, so that the tool manages them.
    const renamed = FEED.map((row) => ({ ...row, name: `${row.name} (new)` }));
    expect((await pipeline.cli(['run', await pipeline.csv('first.csv', renamed)])).code).toBe(0);
    pipeline.sandbox.resetStats();

    const result = await pipeline.cli([
      'run',
      await pipeline.csv('night.csv', renamed.slice(0, 4)),
      '--missing',
      'visible=no',
    ]);
    expect(result.code).toBe(0);
    expect(bySku(pipeline.products()).get(GONE)).toMatchObject({ visible: 'no', quantity: 60 });
    // A misspelt one is not: the nearest is said among the fields its products show too.
    const typo = await pipeline.cli([
      'run',
      await pipeline.csv('typo.csv', renamed.slice(0, 3)),
      '--missing',
      'visibel=no',
    ]);
    expect(typo.code).toBe(2);
    expect(typo.stderr.trim()).toBe(
      'catalog-sync: --missing: visibel: no product has it; the nearest field is visible',
    );
  });

  it('--incremental reads the products when a name must be confirmed, though its record would do', async () => {
    const seeded = FEED.map((row) => ({ ...row, price: Number(row.price), quantity: 60, visible: 'yes' }));
    pipeline.sandbox.seedProducts(MAIN_SELLER, seeded);
    const source = await pipeline.csv('feed.csv', FEED);
    expect((await pipeline.cli(['run', source, '--incremental'])).code).toBe(0);
    const lists = () => requestCounts(pipeline.sandbox.stats()).lists;
    pipeline.sandbox.resetStats();
    expect((await pipeline.cli(['run', source, '--incremental'])).code).toBe(0);
    expect(lists()).toBe(0);

    const typo = await pipeline.cli(['run', source, '--incremental', '--missing', 'visibel=no']);
    expect(typo.code).toBe(2);
    expect(typo.stderr.trim()).toBe(
      'catalog-sync: --missing: visibel: no product has it; the nearest field is visible',
    );
    pipeline.sandbox.resetStats();
    const shown = await pipeline.cli(['run', source, '--incremental', '--missing', 'visible=no']);
    expect(shown.code).toBe(0);
    expect(lists()).toBeGreaterThan(0);
  });
});
