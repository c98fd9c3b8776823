import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { bySku, requestCounts, usePipeline } from '../support/pipeline.js';

const HEADER =
  'Handle,Title,Variant SKU,Variant Price,Variant Inventory Tracker,Variant Inventory Qty,Status,Image Src';
const IMAGES = 'https://cdn.example.com/lamp';
/**
 * A Shopify product export: a mug, a lamp (with the status and price given) with a second image on
 * a row of its own (merged into the lamp's row, under its key), and a draft desk.
 */
const shopifyExport = (lamp: string, lampPrice = '30.00') =>
  [
    HEADER,
    'mug,Mug,MUG-1,12.50,shopify,4,active,',
    `lamp,Lamp,LAMP-1,${lampPrice},shopify,2,${lamp},${IMAGES}-1.jpg`,
    `lamp,,,,,,,${IMAGES}-2.jpg`,
    'desk,Desk,DESK-1,80.00,shopify,1,draft,',
    '',
  ].join('\n');

const LEFT_OUT = 'not sold in the source (Shopify Status archived): left out (--only-published)';
const GONE = '; counted as gone from the source (--missing)';

describe('--missing with a product the seller archived in the store (left out, not sent)', () => {
  const pipeline = usePipeline();

  async function night(name: string, lamp: string | [string, string], ...flags: string[]) {
    const source = join(pipeline.dir, `${name}.csv`);
    await writeFile(source, typeof lamp === 'string' ? shopifyExport(lamp) : shopifyExport(...lamp));
    pipeline.sandbox.resetStats();
    const result = await pipeline.cli(['run', source, '--report', `${source}.report`, ...flags]);
    const lines =
      result.code === 0 || result.code === 5 ? parseCsv(await pipeline.readText(`${name}.csv.report`)) : [];
    const puts = pipeline.sandbox.requests().filter((request) => request.method === 'PUT');
    return { ...result, lines, puts, counts: requestCounts(pipeline.sandbox.stats()) };
  }
  const lamp = () => bySku(pipeline.products()).get('LAMP-1');
  const lampId = () => String(pipeline.products().find((product) => product.sku === 'LAMP-1')?.id);
  const MISSING = ['--only-published', '--missing', 'quantity=0'];

  it('gets the --missing fields, says so in its row, and its values back when it is sold again', async () => {
    expect((await night('first', 'active', ...MISSING)).code).toBe(0);
    expect(lamp()).toMatchObject({ quantity: 2, status: 'active' });

    const archived = await night('archived', 'archived', ...MISSING, '--max-missing', '1');

    expect(archived.code).toBe(0);
    expect(archived.counts).toMatchObject({ creates: 0, updates: 1 });
    expect(archived.puts.map((put) => put.body)).toEqual([{ quantity: 0 }]);
    expect(lamp()).toMatchObject({ quantity: 0 });
    expect(archived.lines).toEqual([
      {
        row: '1',
        key: 'MUG-1',
        action: 'unchanged',
        product_id: expect.any(String),
        status: 'ok',
        error: '',
        note: '',
      },
      {
        row: '2',
        key: 'LAMP-1',
        action: 'skipped',
        product_id: '',
        status: 'ok',
        error: LEFT_OUT + GONE,
        note: '',
      },
      {
        row: '3',
        key: 'LAMP-1',
        action: 'merged',
        product_id: '',
        status: 'ok',
        error: 'Shopify image row of handle "lamp": merged into row 2',
        note: '',
      },
      {
        row: '4',
        key: 'DESK-1',
        action: 'skipped',
        product_id: '',
        status: 'ok',
        error: `not sold in the source (Shopify Status draft): left out (--only-published)${GONE}`,
        note: '',
      },
      // The desk was never on the marketplace: nothing to deactivate, no line, no request.
      {
        row: '',
        key: 'LAMP-1',
        action: 'deactivate',
        product_id: lampId(),
        status: 'ok',
        error: '',
        note: '',
      },
    ]);
    expect(archived.stdout).toContain('1 deactivated');

    // Published again the next night: back as any product that returns.
    const back = await night('back', 'active', ...MISSING, '--max-missing', '1');
    expect(back.code).toBe(0);
    expect(back.puts.map((put) => put.body)).toEqual([{ quantity: 2 }]);
    expect(lamp()).toMatchObject({ quantity: 2, status: 'active' });
    expect(back.lines.find((line) => line.key === 'LAMP-1')).toMatchObject({
      row: '2',
      action: 'update',
      status: 'ok',
      note: 'reactivated',
    });
    expect(back.lines.filter((line) => line.action === 'deactivate')).toEqual([]);
  });

  it('is held by --max-missing as any missing product, and planned by --dry-run', async () => {
    expect((await night('first', 'active', ...MISSING)).code).toBe(0);

    const held = await night('held', 'archived', ...MISSING);
    expect(held.code).toBe(5);
    expect(held.counts).toMatchObject({ creates: 0, updates: 0 });
    expect(held.lines.at(-1)).toMatchObject({
      key: 'LAMP-1',
      action: 'deactivate',
      status: 'held',
      error:
        '1 of 2 managed products would be deactivated (50%), more than --max-missing 20%: nothing was sent',
    });

    const dry = await night('dry', 'archived', ...MISSING, '--max-missing', '1', '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.counts).toMatchObject({ creates: 0, updates: 0 });
    expect(dry.lines.at(-1)).toMatchObject({ key: 'LAMP-1', action: 'deactivate', status: 'planned' });
    expect(lamp()).toMatchObject({ quantity: 2 });
  });

  it('with --fields without status instead: the row updates its product, which is not gone, so not deactivated', async () => {
    const fields = ['--fields', 'sku,name,price,quantity', '--missing', 'quantity=0', '--max-missing', '1'];
    expect((await night('first', 'active', ...fields)).code).toBe(0);

    const archived = await night('archived', ['archived', '31.00'], ...fields);

    expect(archived.code).toBe(0);
    expect(archived.puts.map((put) => put.body)).toEqual([{ price: 31 }]);
    expect(archived.lines.find((line) => line.row === '2')).toMatchObject({
      action: 'update',
      status: 'ok',
      error: '',
      note: 'not sold in the source (Shopify Status archived): status not sent (--fields), left as the marketplace has it',
    });
    // The desk was never on the marketplace: not created, and nothing to deactivate.
    expect(archived.lines.find((line) => line.row === '4')).toMatchObject({
      action: 'skipped',
      error:
        'not sold in the source (Shopify Status draft) and status is not among the fields sent (--fields): not created, so that it does not go live',
    });
    expect(archived.lines.filter((line) => line.action === 'deactivate')).toEqual([]);
    expect(lamp()).toMatchObject({ price: 31, quantity: 2 });
  });

  it('without --missing: left out and nothing else, as before', async () => {
    expect((await night('first', 'active', '--only-published')).code).toBe(0);

    const archived = await night('archived', 'archived', '--only-published');

    expect(archived.code).toBe(0);
    expect(archived.counts).toMatchObject({ creates: 0, updates: 0 });
    expect(archived.lines.map((line) => [line.row, line.key, line.action, line.error])).toEqual([
      ['1', 'MUG-1', 'unchanged', ''],
      ['2', 'LAMP-1', 'skipped', LEFT_OUT],
      ['3', 'LAMP-1', 'merged', 'Shopify image row of handle "lamp": merged into row 2'],
      [
        '4',
        'DESK-1',
        'skipped',
        'not sold in the source (Shopify Status draft): left out (--only-published)',
      ],
    ]);
    expect(lamp()).toMatchObject({ quantity: 2, status: 'active' });
  });

  it('--incremental without a list read sees it at the next full read, as a product gone from the file', async () => {
    expect((await night('first', 'active', '--only-published', '--incremental')).code).toBe(0);

    const incremental = await night(
      'incremental',
      'archived',
      ...MISSING,
      '--max-missing',
      '1',
      '--incremental',
    );
    expect(incremental.code).toBe(0);
    expect(incremental.counts.total).toBe(0);
    expect(lamp()).toMatchObject({ quantity: 2 });

    const full = await night('full', 'archived', ...MISSING, '--max-missing', '1');
    expect(full.code).toBe(0);
    expect(full.puts.map((put) => put.body)).toEqual([{ quantity: 0 }]);
    expect(lamp()).toMatchObject({ quantity: 0 });
  });

  it('approve of an earlier held deactivation sends it: for the later run too the product was gone', async () => {
    expect((await night('first', 'active', ...MISSING)).code).toBe(0);
    const held = await night('held', 'archived', ...MISSING);
    expect(held.code).toBe(5);
    // Archived still the next night, and held again: that run did not put it back in the source.
    expect((await night('later', 'archived', ...MISSING)).code).toBe(5);
    pipeline.sandbox.resetStats();

    const approved = await pipeline.cli(['approve', runIdOf(held.stdout)]);

    expect(approved.code).toBe(0);
    expect(
      pipeline.sandbox
        .requests()
        .filter((r) => r.method === 'PUT')
        .map((r) => r.body),
    ).toEqual([{ quantity: 0 }]);
    expect(lamp()).toMatchObject({ quantity: 0 });
  });

  it('approve of an earlier held row of it writes nothing: the later run decided it is not to be sold', async () => {
    expect((await night('first', 'active', ...MISSING)).code).toBe(0);
    const held = await night(
      'repriced',
      ['active', '90.00'],
      '--only-published',
      '--max-price-change',
      '50%',
    );
    expect(held.code).toBe(5);
    const archived = await night('archived', 'archived', ...MISSING, '--max-missing', '1');
    expect(archived.code).toBe(0);
    pipeline.sandbox.resetStats();

    const approved = await pipeline.cli(['approve', runIdOf(held.stdout)]);

    expect(approved.code).toBe(0);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
    expect(lamp()).toMatchObject({ price: 30, quantity: 0 });
    const report = parseCsv((await pipeline.cli(['report', runIdOf(held.stdout)])).stdout);
    expect(report.find((line) => line.key === 'LAMP-1')?.note).toBe(
      `superseded by run ${runIdOf(archived.stdout)}, whose source has it: not written`,
    );
  });
});
