import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';

describe('--job NAME (a job file in jobs/)', () => {
  const pipeline = usePipeline();

  async function job(name: string, text: string): Promise<string> {
    await mkdir(join(pipeline.dir, 'jobs'), { recursive: true });
    const path = join(pipeline.dir, 'jobs', `${name}.yml`);
    await writeFile(path, text, 'utf8');
    return path;
  }

  it('run takes the source and options from the file, its relative paths read from beside jobs/', async () => {
    await pipeline.csv('catalog.csv', catalogRows(5));
    const path = await job('nightly', 'source: catalog.csv\nreport: reports/nightly.csv\ndryRun: true\n');

    const result = await pipeline.cli(['run', '--job', path]);

    expect(result.code).toBe(0);
    expect(result.stdout).toContain('dry run');
    expect(await pipeline.readText('reports/nightly.csv')).toContain(
      'row,key,action,product_id,status,error,note',
    );
    expect(pipeline.sandbox.stats().writesApplied).toBe(0);
  });

  it("the summary says a preset came from the file, and a flag's from the flag", async () => {
    await pipeline.csv('catalog.csv', catalogRows(2));
    const path = await job('nightly', 'source: catalog.csv\npreset: generic\ndryRun: true\n');

    const fromJob = await pipeline.cli(['run', '--job', path]);
    const fromFlag = await pipeline.cli(['run', '--job', path, '--preset', 'generic']);

    expect(fromJob.code, fromJob.stderr).toBe(0);
    expect(fromJob.stdout).toContain('            preset generic (preset in nightly.yml)\n');
    expect(fromFlag.stdout).toContain('            preset generic (--preset)\n');
  });

  it('a flag given on the command line wins over the file', async () => {
    await pipeline.csv('catalog.csv', catalogRows(5));
    const path = await job('nightly', 'source: catalog.csv\ndryRun: true\n');

    const result = await pipeline.cli(['run', '--job', path, '--match-by', 'name']);

    expect(result.code).toBe(0);
    const status = JSON.parse((await pipeline.cli(['status', '--json'])).stdout) as { matchBy: string };
    expect(status.matchBy).toBe('name');
  });

  it('takes first from the file; without it a run puts price and quantity first (issue 14)', async () => {
    await pipeline.csv('catalog.csv', catalogRows(3));
    const path = await job('nightly', 'source: catalog.csv\nfirst: name, price\n');

    expect((await pipeline.cli(['run', '--job', path])).code).toBe(0);
    const status = JSON.parse((await pipeline.cli(['status', '--json'])).stdout);
    expect(status).toMatchObject({ first: ['name', 'price'] });

    expect((await pipeline.cli(['run', await pipeline.csv('other.csv', catalogRows(2))])).code).toBe(0);
    const plain = JSON.parse((await pipeline.cli(['status', '--json'])).stdout);
    expect(plain).toMatchObject({ first: ['price', 'quantity'] });
  });

  it('takes createOnlyFields, incremental and fullReadAfter from the file', async () => {
    await pipeline.csv('catalog.csv', catalogRows(3));
    const path = await job(
      'nightly',
      'source: catalog.csv\ncreateOnlyFields: [price]\nincremental: true\nfullReadAfter: 12h\n',
    );

    const result = await pipeline.cli(['run', '--job', path]);

    expect(result.code).toBe(0);
    const status = JSON.parse((await pipeline.cli(['status', '--json'])).stdout);
    expect(status).toMatchObject({
      createOnlyFields: ['price'],
      incremental: true,
      fullReadAfterMs: 12 * 3600_000,
    });
  });

  it('takes onlyPublished from the file: a draft row is skipped with its reason, and the run exits 0', async () => {
    await writeFile(
      join(pipeline.dir, 'woo.csv'),
      "ID,Type,SKU,Name,Published,Regular price\n1,simple,LIVE-1,Live,1,5\n2,simple,DRAFT-1,Draft,'-1,6\n",
      'utf8',
    );
    const path = await job('nightly', 'source: woo.csv\nonlyPublished: true\nreport: r.csv\n');

    const result = await pipeline.cli(['run', '--job', path]);

    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'rows      2: 1 created, 0 updated, 0 unchanged, 0 invalid, 0 failed, 1 skipped',
    );
    expect(pipeline.products().map((product) => product.sku)).toEqual(['LIVE-1']);
    expect(pipeline.products()[0]).toMatchObject({ status: 'active' });
    expect(await pipeline.readText('r.csv')).toContain(
      '2,DRAFT-1,skipped,,ok,not sold in the source (WooCommerce Published -1 (draft)): left out (--only-published),',
    );
    const status = JSON.parse((await pipeline.cli(['status', '--json'])).stdout);
    expect(status).toMatchObject({ onlyPublished: true });
  });

  it('without --only-published the draft goes out with status draft, never live', async () => {
    await writeFile(
      join(pipeline.dir, 'woo.csv'),
      "ID,Type,SKU,Name,Published,Regular price\n2,simple,DRAFT-1,Draft,'-1,6\n",
      'utf8',
    );

    const result = await pipeline.cli(['run', join(pipeline.dir, 'woo.csv')]);

    expect(result.code).toBe(0);
    expect(pipeline.products()).toMatchObject([{ sku: 'DRAFT-1', status: 'draft' }]);
  });

  it('takes taxRate from the file: a PrestaShop export’s net prices go out gross, and the summary says so', async () => {
    await writeFile(
      join(pipeline.dir, 'ps.csv'),
      'Product ID;Active (0/1);Name *;Price tax excluded;Tax rules ID;Reference #\n1;1;Mug;10;1;\n2;1;Cup;8.40;1;CUP\n',
      'latin1',
    );
    const path = await job('nightly', 'source: ps.csv\ntaxRate: 19%\n');

    const result = await pipeline.cli(['run', '--job', path]);

    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'prices: sent gross: Price tax excluded, with 19% tax (--tax-rate) added, rounded to cents',
    );
    expect(pipeline.products().map((product) => [product.sku, product.name, product.price])).toEqual([
      [undefined, 'Mug', 11.9],
      ['CUP', 'Cup', 10],
    ]);
    const status = JSON.parse((await pipeline.cli(['status', '--json'])).stdout);
    expect(status).toMatchObject({ priceIncludesTax: true, taxRate: '19' });
  });

  it('--price-includes-tax on a file that gives no rate is a one-line usage error (exit 2), before any request', async () => {
    await writeFile(
      join(pipeline.dir, 'ps.csv'),
      'Product ID;Active (0/1);Name *;Price tax excluded;Tax rules ID;Reference #\n1;1;Mug;10;1;M\n',
      'utf8',
    );

    const result = await pipeline.cli(['run', join(pipeline.dir, 'ps.csv'), '--price-includes-tax']);

    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringContaining('add --tax-rate P%')]);
    expect(pipeline.sandbox.stats().total).toBe(0);
  });

  it('a fullReadAfter that is not a duration is a one-line error naming it (exit 2)', async () => {
    const path = await job('weekly', 'source: catalog.csv\nfullReadAfter: soon\n');

    const result = await pipeline.cli(['run', '--job', path]);

    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/weekly\.yml: .*fullReadAfter/)]);
  });

  it('import takes the source from the file too', async () => {
    await pipeline.csv('catalog.csv', catalogRows(3));
    const path = await job('nightly', 'source: catalog.csv\n');

    const result = await pipeline.cli(['import', '--job', path]);

    expect(result.code).toBe(0);
    expect(runIdOf(result.stdout)).toBeTruthy();
  });

  it("a mapping file's error names it by the path the job file gives (maps/de.yml, not de.yml)", async () => {
    await pipeline.csv('catalog.csv', catalogRows(2));
    await mkdir(join(pipeline.dir, 'maps'), { recursive: true });
    await writeFile(join(pipeline.dir, 'maps', 'de.yml'), 'fields:\n  quantiy: quantity\n', 'utf8');
    const path = await job('n2', 'source: catalog.csv\nmapping: maps/de.yml\ndryRun: true\n');

    const result = await pipeline.cli(['run', '--job', path]);

    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      'catalog-sync: maps/de.yml: fields.quantiy: no product field is named so; the nearest field is quantity (to send a field named quantiy all the same, give it custom: true)',
    ]);
  });

  it('an unknown key in the file is a one-line error naming it (exit 2)', async () => {
    const path = await job('typo', 'source: catalog.csv\nmatchby: sku\n');

    const result = await pipeline.cli(['run', '--job', path]);

    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/typo\.yml: .*matchby/)]);
  });

  it('without a source or a job, run says what it needs (exit 2)', async () => {
    const result = await pipeline.cli(['run']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('run needs a <source> (a file, - or an http(s) URL) or --job NAME');
  });
});
