import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogRows, parseCsv } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { MAIN_SELLER, usePipeline } from '../support/pipeline.js';

describe('the report of a run', () => {
  const pipeline = usePipeline();

  async function runWithStrangers() {
    // Two products the source does not hold: one with a sku, one without any.
    const [strangerId, unkeyedId] = pipeline.sandbox.seedProducts(MAIN_SELLER, [
      { sku: 'NOT-IN-SOURCE', name: 'Old stock', price: 1 },
      { name: 'No sku at all', price: 2 },
    ]);
    const rows = [
      ...catalogRows(3),
      { sku: 'BAD-PRICE', name: 'Broken', price: 'twelve' },
      ...catalogRows(2, 4),
    ];
    const source = await pipeline.csv('catalog.csv', rows);
    const result = await pipeline.cli(['run', source, '--report', join(pipeline.dir, 'report.csv')]);
    return { result, rows, strangerId, unkeyedId };
  }

  it('has the header row,key,action,product_id,status,error,note', async () => {
    await runWithStrangers();

    const text = await pipeline.readText('report.csv');

    expect(text.split('\n')[0]).toBe('row,key,action,product_id,status,error,note');
  });

  it('has one line per source row in source order, then the missing remote products', async () => {
    const { rows, strangerId, unkeyedId } = await runWithStrangers();

    const report = parseCsv(await pipeline.readText('report.csv'));

    const sourceLines = report.slice(0, rows.length);
    expect(sourceLines.map((line) => line.row)).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(sourceLines.map((line) => line.key)).toEqual(rows.map((row) => row.sku));
    expect(sourceLines.filter((line) => line.row !== '4').every((line) => line.action === 'create')).toBe(
      true,
    );
    expect(sourceLines.filter((line) => line.row !== '4').every((line) => line.status === 'ok')).toBe(true);
    expect(sourceLines[3]).toMatchObject({ action: 'invalid', status: 'failed', product_id: '' });
    expect(sourceLines[3]?.error).toContain('price');
    const missing = report.slice(rows.length);
    // In ascending product id, whatever order Redis keeps them in.
    const lines = [
      {
        row: '',
        key: 'NOT-IN-SOURCE',
        action: 'missing',
        product_id: strangerId,
        status: 'ok',
        error: '',
        note: '',
      },
      { row: '', key: '', action: 'missing', product_id: unkeyedId, status: 'ok', error: '', note: '' },
    ];
    expect(missing).toEqual(lines.sort((a, b) => Number(a.product_id) - Number(b.product_id)));
  });

  it('lists a second remote product under a key the source holds as missing (the first one is synced)', async () => {
    const [firstId, secondId] = pipeline.sandbox.seedProducts(MAIN_SELLER, [
      { sku: 'TWICE', name: 'Listed twice', price: 1 },
      { sku: 'TWICE', name: 'Listed twice', price: 1 },
    ]);
    const source = await pipeline.csv('catalog.csv', [{ sku: 'TWICE', name: 'Listed twice', price: '1' }]);

    await pipeline.cli(['run', source, '--report', join(pipeline.dir, 'report.csv')]);

    expect(parseCsv(await pipeline.readText('report.csv'))).toEqual([
      { row: '1', key: 'TWICE', action: 'unchanged', product_id: firstId, status: 'ok', error: '', note: '' },
      {
        row: '',
        key: 'TWICE',
        action: 'missing',
        product_id: secondId,
        status: 'ok',
        error: '',
        note: `the marketplace has more than one product with sku TWICE: this tool writes product ${firstId} (listed first), not this one`,
      },
    ]);
  });

  it('gives each created row the id of the product it created', async () => {
    const { rows } = await runWithStrangers();

    const report = parseCsv(await pipeline.readText('report.csv'));

    const idsBySku = new Map(pipeline.products().map((p) => [String(p.sku), String(p.id)]));
    const created = report.filter((l) => l.action === 'create');
    // Every row but the invalid 4th is a create: the loop below cannot pass on an empty report.
    expect(created).toHaveLength(rows.length - 1);
    for (const line of created) {
      expect(line.product_id).toBe(idsBySku.get(line.key!));
    }
  });

  it('reads the same from `catalog-sync report <run-id>` as from --report FILE', async () => {
    const { result } = await runWithStrangers();

    const printed = await pipeline.cli(['report', runIdOf(result.stdout)]);

    expect(printed.code).toBe(0);
    expect(printed.stdout).toBe(await pipeline.readText('report.csv'));
  });

  it('writes it to a file with `report <run-id> --out FILE`', async () => {
    const { result } = await runWithStrangers();
    const out = join(pipeline.dir, 'again.csv');

    expect((await pipeline.cli(['report', runIdOf(result.stdout), '--out', out])).code).toBe(0);

    expect(await pipeline.readText('again.csv')).toBe(await pipeline.readText('report.csv'));
  });

  it('refuses an unknown run id with one line and exit 2', async () => {
    const printed = await pipeline.cli(['report', '20990101T000000-ffffff']);

    expect(printed.code).toBe(2);
    expect(printed.stderr.trim().split('\n')).toEqual([expect.stringContaining('20990101T000000-ffffff')]);
  });
});
