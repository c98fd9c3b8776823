import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../support/catalog.js';
import { bySku, MAIN_SELLER, requestCounts, usePipeline } from '../support/pipeline.js';

// What spreadsheets export: padded names, prices with more decimals than cents, float noise, tag lists.
const ROWS = [
  { sku: 'SCARF', name: '  Wool   scarf ', price: '12.3456', tags: 'red,warm' },
  { sku: 'HAT', name: 'Felt hat', price: '1.5699999999999998', tags: 'grey' },
  { sku: 'MITT', name: 'Mittens', price: '8', tags: '' },
];
const COLUMNS = ['sku', 'name', 'price', 'tags'];

describe('against an API that keeps its own form of what it is sent (sandbox --normalize)', () => {
  const pipeline = usePipeline({ normalize: true });

  async function run(name = 'catalog.csv', rows = ROWS, ...args: string[]) {
    const source = await pipeline.csv(name, rows, COLUMNS);
    const before = requestCounts(pipeline.sandbox.stats());
    // Four decimals taken as money: the tool sends 12.3456 as the file has it, and the API rounds it.
    const result = await pipeline.cli([
      'run',
      source,
      '--report',
      join(pipeline.dir, 'report.csv'),
      '--price-decimals',
      '4',
      ...args,
    ]);
    const after = requestCounts(pipeline.sandbox.stats());
    const report = parseCsv(await pipeline.readText('report.csv'));
    return {
      result,
      report,
      creates: after.creates - before.creates,
      updates: after.updates - before.updates,
    };
  }

  it('sends nothing on the second run of the same file: list pages only', async () => {
    const first = await run();
    expect(first.result.code).toBe(0);
    expect(bySku(pipeline.products()).get('SCARF')).toMatchObject({ name: 'Wool scarf', price: 12.35 });

    const second = await run();

    expect(second.result.code).toBe(0);
    expect({ creates: second.creates, updates: second.updates }).toEqual({ creates: 0, updates: 0 });
    expect(second.report.map((line) => line.action)).toEqual(['unchanged', 'unchanged', 'unchanged']);
  });

  it('sends a changed field alone, and the next run is quiet again', async () => {
    await run();
    const changed = await run('changed.csv', [{ ...ROWS[0]!, price: '13' }, ROWS[1]!, ROWS[2]!]);
    expect({ creates: changed.creates, updates: changed.updates }).toEqual({ creates: 0, updates: 1 });

    const again = await run('changed.csv', [{ ...ROWS[0]!, price: '13' }, ROWS[1]!, ROWS[2]!]);

    expect(again.updates).toBe(0);
  });

  it('puts back a field changed on the marketplace (drift), once, and says so in the note', async () => {
    const first = await run();
    const scarfId = first.report[0]?.product_id ?? '';
    pipeline.sandbox.editProduct(MAIN_SELLER, scarfId, { name: 'Scarf (edited by hand)' });

    const repaired = await run();

    expect(repaired.updates).toBe(1);
    expect(repaired.report[0]).toMatchObject({
      action: 'update',
      note: 'name changed on the marketplace: sent again',
    });
    expect(bySku(pipeline.products()).get('SCARF')?.name).toBe('Wool scarf');
    expect((await run()).updates).toBe(0);
  });

  it('keeps three marketplace edits with --keep-remote-edits name (0 writes), repairs them without it (3 writes)', async () => {
    const first = await run();
    const edits = ['Scarf, hand-written', 'Hat, hand-written', 'Mittens, hand-written'];
    for (const [i, line] of first.report.entries())
      pipeline.sandbox.editProduct(MAIN_SELLER, line.product_id ?? '', { name: edits[i] });

    for (let night = 0; night < 2; night++) {
      const kept = await run('catalog.csv', ROWS, '--keep-remote-edits', 'name');
      expect({ creates: kept.creates, updates: kept.updates }).toEqual({ creates: 0, updates: 0 });
      expect(kept.report.map((line) => line.note)).toEqual(
        Array(3).fill('name changed on the marketplace, kept'),
      );
    }
    expect(ROWS.map((row) => bySku(pipeline.products()).get(row.sku)?.name)).toEqual(edits);

    const repaired = await run();

    expect(repaired.updates).toBe(3);
    expect(ROWS.map((row) => bySku(pipeline.products()).get(row.sku)?.name)).toEqual([
      'Wool scarf',
      'Felt hat',
      'Mittens',
    ]);
  });
});

describe('against an API that answers a create with no product (its form is learned from the next list)', () => {
  const pipeline = usePipeline({ normalize: true, createBody: false });

  it('writes nothing on the second and third runs', async () => {
    const source = await pipeline.csv('catalog.csv', ROWS, COLUMNS);
    // As above: the price goes out with its four decimals, and its form is the API's.
    const run = () => pipeline.cli(['run', source, '--price-decimals', '4']);
    expect((await run()).code).toBe(0);
    const afterFirst = requestCounts(pipeline.sandbox.stats());

    await run();
    await run();

    const writes = requestCounts(pipeline.sandbox.stats());
    expect(writes.creates + writes.updates).toBe(afterFirst.creates + afterFirst.updates);
  });
});

describe('against an API whose PUT takes only some fields (sandbox --update-fields name)', () => {
  const pipeline = usePipeline({ updateFields: ['name'] });

  it('with --create-only-fields price, still gets its renames, and notes the price it cannot change', async () => {
    const rows = [{ sku: 'LAMP', name: 'Desk lamp', price: '20' }];
    await pipeline.cli(['run', await pipeline.csv('catalog.csv', rows), '--create-only-fields', 'price']);
    const renamed = [{ sku: 'LAMP', name: 'Desk lamp, brass', price: '22' }];
    const report = join(pipeline.dir, 'report.csv');

    const result = await pipeline.cli([
      'run',
      await pipeline.csv('renamed.csv', renamed),
      '--create-only-fields',
      'price',
      '--report',
      report,
    ]);

    expect(result.code).toBe(0);
    expect(bySku(pipeline.products()).get('LAMP')).toMatchObject({ name: 'Desk lamp, brass', price: 20 });
    expect(parseCsv(await pipeline.readText('report.csv'))[0]).toMatchObject({
      action: 'update',
      status: 'ok',
      note: 'price differs (create-only: not sent in an update)',
    });
  });
});
