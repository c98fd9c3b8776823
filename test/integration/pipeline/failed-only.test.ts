import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { RedisKeys } from '../../../src/runs/keys.js';
import { REAL_FIXTURES_DIR } from '../../support/real-fixtures-dir.js';
import { parseCsv } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { MAIN_SELLER, requestCounts, usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';

/** A CSV as arrays of cells (the header first), with its delimiter. */
function cells(text: string, delimiter = ','): string[][] {
  return parse(text, { delimiter, relax_column_count: true }) as string[][];
}

/** Above the sandbox's limit (1e9): valid to this tool, refused by the API with 400. */
const REFUSED_PRICE = '2000000000';

describe('report <run-id> --failed-only', () => {
  const pipeline = usePipeline();

  it('gives a real WooCommerce export back in its own columns, and the file, fixed, imports with 0 failed', async () => {
    const fixture = await readFile(join(REAL_FIXTURES_DIR, 'woocommerce/sample_products.csv'), 'utf8');
    const [header = [], ...rows] = cells(fixture);
    const price = header.indexOf('Regular price');
    const name = header.indexOf('Name');
    // Rows 4 and 6 are invalid here (no price a decimal could be); rows 5 and 7 the API refuses.
    rows[3]![price] = 'eighteen';
    rows[4]![price] = REFUSED_PRICE;
    rows[5]![price] = 'n/a';
    rows[6]![name] = 'x'.repeat(300);
    const source = join(pipeline.dir, 'woo.csv');
    await writeFile(source, stringify([header, ...rows]));

    const first = await pipeline.cli(['run', source]);
    expect(first.code).toBe(1);
    expect(pipeline.sandbox.stats().byStatus['400']).toBe(2);

    const out = join(pipeline.dir, 'failed.csv');
    const failedOnly = await pipeline.cli(['report', runIdOf(first.stdout), '--failed-only', '--out', out]);
    expect(failedOnly.code).toBe(0);
    const [failedHeader = [], ...failed] = cells(await readFile(out, 'utf8'));
    expect(failedHeader).toEqual([...header, 'error']);
    expect(failed.map((line) => line.slice(0, -1))).toEqual([rows[3], rows[4], rows[5], rows[6]]);
    expect(failed.map((line) => line.at(-1))).toEqual([
      expect.stringMatching(/price/),
      expect.stringMatching(/price/),
      expect.stringMatching(/price/),
      expect.stringMatching(/name/),
    ]);

    // Fixed as a user would: the bad cells edited, the error column left in.
    for (const line of failed) {
      line[price] = '18';
      line[name] = line[name]!.slice(0, 40);
    }
    const fixed = join(pipeline.dir, 'fixed.csv');
    await writeFile(fixed, stringify([failedHeader, ...failed]));
    pipeline.sandbox.resetStats();
    const again = await pipeline.cli(['run', fixed, '--report', join(pipeline.dir, 'again.csv')]);

    expect(again.code).toBe(0);
    expect(again.stdout).toContain('preset woocommerce');
    expect(again.stdout).toContain('rows      4: 4 created, 0 updated, 0 unchanged, 0 invalid, 0 failed');
    expect(requestCounts(pipeline.sandbox.stats()).creates).toBe(4);
    const created = pipeline.products().filter((p) => ['woo-tshirt', 'woo-beanie'].includes(String(p.sku)));
    expect(created.map((p) => p.price)).toEqual([18, 18]);
    expect(pipeline.products().some((p) => 'error' in p)).toBe(false);
  });

  it('writes failed Shopify variants back with the rows of their handle they take fields from, and the fixed file imports as the source meant it', async () => {
    const fixture = await readFile(join(REAL_FIXTURES_DIR, 'shopify-template/product_template.csv'), 'utf8');
    const [header = [], ...rows] = cells(fixture);
    const column = (name: string) => header.indexOf(name);
    const price = column('Variant Price');
    // Rows 5 and 8 are variants of "example-shirt": its Title is on row 1 only, its gallery on rows 1
    // to 6 (Image Src). The API refuses row 5, row 8 is invalid here.
    rows[4]![price] = REFUSED_PRICE;
    rows[7]![price] = 'n/a';
    const source = join(pipeline.dir, 'shopify.csv');
    await writeFile(source, stringify([header, ...rows]));
    const first = await pipeline.cli(['run', source]);
    expect(first.code).toBe(1);
    const runId = runIdOf(first.stdout);
    // Each failed row keeps the numbers of the rows it takes fields from; their values are kept once.
    const kept = await withRedis(async (redis) => {
      const keys = new RedisKeys(pipeline.prefix);
      return {
        failed: await redis.hgetall(keys.failedSources(runId)),
        parents: Object.keys(await redis.hgetall(keys.parentSources(runId))).map(Number),
      };
    });
    expect(JSON.parse(kept.failed['5'] ?? '{}').parents).toEqual([1, 2, 3, 4, 6]);
    expect(JSON.parse(kept.failed['8'] ?? '{}').parents).toEqual([1, 2, 3, 4, 5, 6]);
    expect(kept.parents.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);

    const out = join(pipeline.dir, 'failed.csv');
    const failedOnly = await pipeline.cli(['report', runId, '--failed-only', '--out', out]);
    expect(failedOnly.code).toBe(0);
    expect(failedOnly.stderr.trim()).toBe(
      `catalog-sync: 2 failed rows written to ${out}, with 5 rows they take product fields from`,
    );
    const [failedHeader = [], ...failed] = cells(await readFile(out, 'utf8'));
    // In source order, each once; row 7 gives neither of them anything.
    expect(failed.map((line) => line.slice(0, -1))).toEqual([...rows.slice(0, 6), rows[7]]);
    const givenBack = 'not failed: written back for row 5, which takes product fields from this row';
    expect(failed.map((line) => line.at(-1))).toEqual([
      ...Array(4).fill(givenBack),
      expect.stringMatching(/price/),
      givenBack,
      expect.stringMatching(/price/),
    ]);

    for (const line of [failed[4]!, failed[6]!]) line[price] = '25';
    const fixed = join(pipeline.dir, 'fixed.csv');
    await writeFile(fixed, stringify([failedHeader, ...failed]));
    pipeline.sandbox.resetStats();
    const again = await pipeline.cli(['run', fixed]);

    expect(again.code, again.stdout).toBe(0);
    // The rows given back change nothing: the same names, the same gallery, in the same order.
    expect(again.stdout).toContain('rows      7: 2 created, 0 updated, 5 unchanged, 0 invalid, 0 failed');
    expect(requestCounts(pipeline.sandbox.stats()).creates).toBe(2);
    // Named as the first run names the handle's other variants: the title and the options.
    const title = rows[0]![column('Title')];
    const options = (row: string[]) =>
      ['Option1 Value', 'Option2 Value', 'Option3 Value'].map((name) => row[column(name)]).filter(Boolean);
    const byName = new Map(pipeline.products().map((p) => [p.sku, p.name]));
    for (const row of [rows[4]!, rows[7]!])
      expect(byName.get(row[column('Variant SKU')])).toBe(`${title} - ${options(row).join(' / ')}`);
  });

  it('gives an ISO-8859-1 ;-file back as UTF-8 with its header as written; the guarded cells read back', async () => {
    const header = ['sku', 'name', 'price', ' Catégorie '];
    const rows = [
      ['CR-1', 'Crème brûlée', '4,50', 'Desserts'],
      ['CR-2', 'Gâteau', 'douze', 'Pâtisserie'],
      ['CR-3', '=1+2 coffret', `${REFUSED_PRICE},00`, 'Coffrets'],
      ['CR-4', 'Éclair', '2,10', 'Pâtisserie'],
    ];
    const source = join(pipeline.dir, 'latin1.csv');
    await writeFile(source, iconv.encode(stringify([header, ...rows], { delimiter: ';' }), 'latin1'));

    const first = await pipeline.cli(['run', source]);
    expect(first.code).toBe(1);
    const out = join(pipeline.dir, 'failed.csv');
    expect((await pipeline.cli(['report', runIdOf(first.stdout), '--failed-only', '--out', out])).code).toBe(
      0,
    );

    const bytes = await readFile(out);
    const text = bytes.toString('utf8');
    expect(Buffer.from(text, 'utf8').equals(bytes)).toBe(true);
    const [failedHeader = [], ...failed] = cells(text, ';');
    expect(failedHeader).toEqual([...header, 'error']);
    // Formula-guarded in the file, as every CSV this tool writes.
    expect(failed.map((line) => line.slice(0, -1))).toEqual([
      rows[1],
      ['CR-3', "'=1+2 coffret", rows[2]![2], 'Coffrets'],
    ]);

    failed[0]![2] = '12,00';
    failed[1]![2] = '15,00';
    const fixed = join(pipeline.dir, 'fixed.csv');
    await writeFile(fixed, stringify([failedHeader, ...failed], { delimiter: ';' }));
    const again = await pipeline.cli(['run', fixed]);

    expect(again.code).toBe(0);
    expect(again.stdout).toContain('rows      2: 2 created, 0 updated, 0 unchanged, 0 invalid, 0 failed');
    const bySku = new Map(pipeline.products().map((p) => [p.sku, p]));
    expect(bySku.get('CR-2')).toMatchObject({ name: 'Gâteau', price: 12, Catégorie: 'Pâtisserie' });
    expect(bySku.get('CR-3')).toMatchObject({ name: '=1+2 coffret', price: 15 });
    // The generic preset sends every column as a field, but never the error column.
    expect(bySku.get('CR-2')).not.toHaveProperty('error');
  });

  it('says nothing of rows still to settle for a run its guard held: every row of it is settled', async () => {
    const seed = [
      { sku: 'H-1', name: 'One', price: '10' },
      { sku: 'H-2', name: 'Two', price: '20' },
    ];
    expect((await pipeline.cli(['run', await pipeline.csv('seed.csv', seed)])).code).toBe(0);
    const rows = [
      { sku: 'H-1', name: 'One', price: '100' },
      { sku: 'H-2', name: 'Two', price: 'n/a' },
    ];
    const held = await pipeline.cli([
      'run',
      await pipeline.csv('held.csv', rows),
      '--max-price-change',
      '50%',
    ]);
    expect(held.code).toBe(5);

    const printed = await pipeline.cli(['report', runIdOf(held.stdout), '--failed-only']);

    expect(printed.code).toBe(0);
    expect(cells(printed.stdout).map((line) => line[0])).toEqual(['sku', 'H-2']);
    expect(printed.stderr).toBe('catalog-sync: 1 failed row\n');
  });

  it('keeps the source values of rows that fail in a guarded run, whether applied or approved', async () => {
    // Row 2 passes the guard and is refused when applied; row 3 is held, then refused when approved.
    const seed = [
      { sku: 'G-1', name: 'One', price: '10' },
      { sku: 'G-2', name: 'Two', price: '20' },
      { sku: 'G-3', name: 'Three', price: '30' },
    ];
    expect((await pipeline.cli(['run', await pipeline.csv('seed.csv', seed)])).code).toBe(0);
    const rows = [
      { sku: 'G-1', name: 'One', price: '11' },
      { sku: 'G-2', name: 'x'.repeat(300), price: '20' },
      { sku: 'G-3', name: 'y'.repeat(300), price: '300' },
    ];
    const held = await pipeline.cli([
      'run',
      await pipeline.csv('guarded.csv', rows),
      '--max-price-change',
      '50%',
    ]);
    expect(held.code).toBe(5);
    const runId = runIdOf(held.stdout);
    expect((await pipeline.cli(['approve', runId])).code).toBe(1);

    const printed = await pipeline.cli(['report', runId, '--failed-only']);

    expect(printed.code).toBe(0);
    expect(cells(printed.stdout).map((line) => line.slice(0, 3))).toEqual([
      ['sku', 'name', 'price'],
      ['G-2', 'x'.repeat(300), '20'],
      ['G-3', 'y'.repeat(300), '300'],
    ]);
  });

  it('a Shopify variant refused once its guarded run is approved comes back with its handle’s rows; only those stay kept', async () => {
    const fixture = await readFile(join(REAL_FIXTURES_DIR, 'shopify-template/product_template.csv'), 'utf8');
    const [header = [], ...rows] = cells(fixture);
    const price = header.indexOf('Variant Price');
    const first = join(pipeline.dir, 'shopify.csv');
    await writeFile(first, stringify([header, ...rows]));
    expect((await pipeline.cli(['run', first])).code).toBe(0);
    // Row 5's new price is refused by the API, row 8's is fine: two updates, over --max-updates 1.
    rows[4]![price] = REFUSED_PRICE;
    rows[7]![price] = '26';
    const second = join(pipeline.dir, 'shopify-2.csv');
    await writeFile(second, stringify([header, ...rows]));
    const held = await pipeline.cli(['run', second, '--max-updates', '1']);
    expect(held.code).toBe(5);
    const runId = runIdOf(held.stdout);
    expect((await pipeline.cli(['approve', runId])).code).toBe(1);

    const printed = await pipeline.cli(['report', runId, '--failed-only']);
    const [, ...failed] = cells(printed.stdout);
    expect(failed.map((line) => line.slice(0, -1))).toEqual(rows.slice(0, 6));
    expect(failed[4]?.at(-1)).toMatch(/price/);
    // The plan's copy of the parents went with the plan; the failed row's parents stay for the report.
    const kept = await withRedis(async (redis) => {
      const keys = new RedisKeys(pipeline.prefix);
      return {
        plan: await redis.exists(keys.planParents(runId)),
        parents: Object.keys(await redis.hgetall(keys.parentSources(runId))).map(Number),
      };
    });
    expect(kept.plan).toBe(0);
    expect(kept.parents.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 6]);
  });

  it('quotes a cell with white space at its edges and guards a formula after leading spaces, as the report does', async () => {
    const source = join(pipeline.dir, 'spaced.csv');
    await writeFile(source, 'sku,name,price\nA1," =1+1",n/a\nA2,"Mug ",n/a\nA3," Bowl",n/a\n');
    const first = await pipeline.cli(['run', source]);
    expect(first.code).toBe(1);

    const printed = await pipeline.cli(['report', runIdOf(first.stdout), '--failed-only']);

    expect(printed.code).toBe(0);
    const lines = printed.stdout.split('\n');
    // Guarded, the cell starts with its `'`: no white space at its edge is left to lose.
    expect(lines[1]).toMatch(/^A1,' =1\+1,n\/a,/);
    expect(lines[2]).toMatch(/^A2,"Mug ",n\/a,/);
    expect(lines[3]).toMatch(/^A3," Bowl",n\/a,/);
  });

  it('lists nothing but the header for a run without failures', async () => {
    const source = await pipeline.csv('ok.csv', [{ sku: 'A', name: 'Apple', price: '1' }]);
    const first = await pipeline.cli(['run', source]);

    const printed = await pipeline.cli(['report', runIdOf(first.stdout), '--failed-only']);

    expect(printed.code).toBe(0);
    expect(printed.stdout).toBe('sku,name,price,error\n');
  });

  it('says in one line, exit 2, that a run from before holds no source rows', async () => {
    const source = await pipeline.csv('bad.csv', [{ sku: 'A', name: 'Apple', price: 'x' }]);
    const runId = runIdOf((await pipeline.cli(['run', source])).stdout);
    // A run recorded before this change has no source header.
    await withRedis((redis) => redis.hdel(`${pipeline.prefix}:run:${runId}`, 'sourceHeader'));

    const printed = await pipeline.cli(['report', runId, '--failed-only']);

    expect(printed.code).toBe(2);
    expect(printed.stderr.trim().split('\n')).toEqual([expect.stringContaining('holds no source rows')]);
    expect(pipeline.products(MAIN_SELLER)).toEqual([]);
    expect(parseCsv(printed.stdout)).toEqual([]);
  });
});
