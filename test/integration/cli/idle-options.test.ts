import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { bySku, requestCounts, usePipeline } from '../support/pipeline.js';

/**
 * docs/options.md, "Options that would do nothing": an option the others make idle is one line,
 * exit 2, before any request; a flag that overrides the job file's option is no such thing.
 */
describe('options that would do nothing are refused, never accepted in silence', () => {
  const pipeline = usePipeline();
  const ROWS = catalogRows(2);

  it.each([
    [
      ['--full-read-after', '1d'],
      '--full-read-after: it says when an --incremental run reads the products anyway, and this run is not --incremental: add --incremental or drop it',
    ],
    [
      ['--keep-remote-edits', 'name', '--fields', 'price'],
      '--keep-remote-edits: name: this run does not send it (--fields price)',
    ],
    [
      ['--create-only-fields', 'name', '--fields', 'sku,price'],
      '--create-only-fields: name: this run does not send it (--fields sku,price)',
    ],
    [
      ['--max-price-change', '10%', '--fields', 'name'],
      '--max-price-change: this run sends no price or sale_price (--fields name): the guard would never act',
    ],
    [
      ['--max-updates', '1', '--only', 'create'],
      '--max-updates: --only create updates nothing: the guard would never act',
    ],
    [
      ['--create-only-fields', 'price', '--only', 'update'],
      '--create-only-fields: --only update creates nothing: fields sent on create only would never be sent',
    ],
    [
      ['--tax-rate', '5%', '--fields', 'name'],
      '--tax-rate: this run sends no price or sale_price (--fields name): there is no price to act on',
    ],
    [
      ['--missing', 'quantity=0', '--only', 'update'],
      '--missing: a run with --only update leaves rows out, so it can tell no product gone from the source and deactivates nothing: drop one of them',
    ],
    [
      ['--fields', 'name', '--fields', 'price'],
      '--fields is given twice: give it once (a list takes commas: --fields a,b); the last would silently replace the first',
    ],
    [
      ['--only', 'create', '--only', 'update'],
      '--only is given twice: give it once; the last would silently replace the first',
    ],
    [
      ['--match-by', 'sku', '--match-by', 'name'],
      '--match-by is given twice: give it once; the last would silently replace the first',
    ],
  ])('%j: one line, exit 2, no request', async (flags, line) => {
    const source = await pipeline.csv('catalog.csv', ROWS);
    const result = await pipeline.cli(['run', source, ...flags]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`catalog-sync: ${line}\n`);
    expect(result.stdout).toBe('');
    expect(pipeline.sandbox.stats().total).toBe(0);
  });

  async function job(text: string): Promise<string> {
    await mkdir(join(pipeline.dir, 'jobs'), { recursive: true });
    const path = join(pipeline.dir, 'jobs', 'nightly.yml');
    await writeFile(path, `source: ${await pipeline.csv('catalog.csv', ROWS)}\n${text}`, 'utf8');
    return path;
  }

  it("a job file's option and a flag that together do nothing: refused, each named where it was written", async () => {
    const path = await job('fields: [name]\n');
    const result = await pipeline.cli(['run', '--job', path, '--max-price-change', '10%']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'catalog-sync: --max-price-change: this run sends no price or sale_price (fields: name in nightly.yml): the guard would never act\n',
    );
    const both = await pipeline.cli(['run', '--job', await job('only: create\nmaxUpdates: 5\n')]);
    expect(both.code).toBe(2);
    expect(both.stderr).toBe(
      'catalog-sync: maxUpdates in nightly.yml: only: create in nightly.yml updates nothing: the guard would never act\n',
    );
    expect(pipeline.sandbox.stats().total).toBe(0);
  });

  it("a flag still overrides the job file's option: --fields sku,name,price over fields: [name] sends the price", async () => {
    const path = await job('fields: [name]\n');
    const result = await pipeline.cli([
      'run',
      '--job',
      path,
      '--fields',
      'sku,name,price',
      '--max-price-change',
      '50%',
    ]);
    expect(result.code).toBe(0);
    expect(requestCounts(pipeline.sandbox.stats()).creates).toBe(2);
    expect(bySku(pipeline.products()).get(ROWS[0]?.sku ?? '')).toMatchObject({
      price: Number(ROWS[0]?.price),
    });
  });

  it('--dry-run says which options it does not apply, and goes on', async () => {
    const source = await pipeline.csv('catalog.csv', ROWS);
    const result = await pipeline.cli(['run', source, '--dry-run', '--max-updates', '1']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      'catalog-sync: --dry-run: --max-updates acts on writes and is not applied: a dry run writes nothing and holds nothing\n',
    );
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
  });
});
