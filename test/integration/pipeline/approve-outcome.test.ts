import { describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';

describe('approve: how it ends', () => {
  const pipeline = usePipeline();

  it('exits 1, as `run` would, when the approved run ends with invalid rows', async () => {
    const rows = catalogRows(7).map((row, i) => (i % 2 === 1 ? { ...row, price: 'abc' } : row));
    const source = await pipeline.csv('bad.csv', rows);
    const held = await pipeline.cli(['run', source, '--max-invalid', '1']);
    expect(held.code).toBe(5);

    const approved = await pipeline.cli(['approve', runIdOf(held.stdout)]);

    expect(approved.stdout).toMatch(/^run \S+: done in /m);
    expect(approved.stdout).toContain('rows      7: 4 created, 0 updated, 0 unchanged, 3 invalid, 0 failed');
    expect(approved.code).toBe(1);
    // The same counts from `run` itself: exit 1.
    expect((await pipeline.cli(['run', source])).code).toBe(1);
  });

  it('approve --rows: the held line and status count the rows still held', async () => {
    const good = catalogRows(12);
    expect((await pipeline.cli(['run', await pipeline.csv('good.csv', good)])).code).toBe(0);
    const tenfold = good.map((row, i) => (i < 5 ? { ...row, price: String(Number(row.price) * 10) } : row));
    const held = await pipeline.cli([
      'run',
      await pipeline.csv('tenfold.csv', tenfold),
      '--max-price-change',
      '50%',
    ]);
    expect(held.code).toBe(5);
    expect(held.stdout).toContain(
      'held      5 rows held: their prices move more than --max-price-change 50%',
    );
    const runId = runIdOf(held.stdout);

    const some = await pipeline.cli(['approve', runId, '--rows', '3']);

    const four = '4 rows held: their prices move more than --max-price-change 50%';
    expect(some.stdout).toContain(', 4 held');
    expect(some.stdout).toContain(`held      ${four}`);
    expect((await pipeline.cli(['status', runId])).stdout).toMatch(
      new RegExp(`^run \\S+: held: ${four}$`, 'm'),
    );
    expect(JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout).heldReason).toBe(four);

    const more = await pipeline.cli(['approve', runId, '--rows', '1,2,4']);

    expect(more.stdout).toContain('held      1 row held: its price moves more than --max-price-change 50%');
    expect((await pipeline.cli(['approve', runId])).stdout).toMatch(/^run \S+: done in /m);
  });

  it('approve --rows of a whole run held by --max-updates: the reason no longer says nothing was sent', async () => {
    const good = catalogRows(6);
    expect((await pipeline.cli(['run', await pipeline.csv('good.csv', good)])).code).toBe(0);
    const renamed = good.map((row) => ({ ...row, name: `${row.name} v2` }));
    const held = await pipeline.cli([
      'run',
      await pipeline.csv('renamed.csv', renamed),
      '--max-updates',
      '2',
    ]);
    expect(held.code).toBe(5);
    const runId = runIdOf(held.stdout);
    const reasonOf = async () =>
      JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout).heldReason as string;
    expect(await reasonOf()).toMatch(/: nothing was sent$/);

    expect((await pipeline.cli(['approve', runId, '--rows', '1,2'])).code).toBe(5);

    // Before: still "…: nothing was sent", with two of the six sent.
    expect(await reasonOf()).toMatch(/: 4 rows still held, the others approved$/);
    expect((await pipeline.cli(['approve', runId, '--rows', '3'])).code).toBe(5);
    expect(await reasonOf()).toMatch(/more than --max-updates 2: 3 rows still held, the others approved$/);
  });

  it('approve --rows of a run held by --max-missing: once no row is held, the held line says the deactivations wait', async () => {
    const good = catalogRows(10).map((row) => ({ ...row, quantity: '5' }));
    expect((await pipeline.cli(['run', await pipeline.csv('good.csv', good)])).code).toBe(0);
    // 3 of 10 gone (30%, more than the default --max-missing 20%), row 2 renamed: the whole run held.
    const night = good.slice(0, 7).map((row, i) => (i === 1 ? { ...row, name: `${row.name} v2` } : row));
    const held = await pipeline.cli([
      'run',
      await pipeline.csv('night.csv', night),
      '--missing',
      'quantity=0',
    ]);
    expect(held.code).toBe(5);
    const runId = runIdOf(held.stdout);
    expect(held.stdout).toContain('more than --max-missing 20%: nothing was sent');

    const approved = await pipeline.cli(['approve', runId, '--rows', '2']);

    expect(approved.code).toBe(5);
    expect(pipeline.products().find((p) => p.sku === night[1]?.sku)?.name).toBe(night[1]?.name);
    // Before: still "3 of 10 managed products would be deactivated (30%), more than --max-missing 20%:
    // nothing was sent", with row 2's update sent.
    const line =
      'no row held; 3 deactivations held with the run (--missing): `approve` without --rows sends them';
    expect(approved.stdout).toMatch(new RegExp(`^ {2}held {6}${line.replace(/[()`-]/g, '\\$&')}$`, 'm'));
    expect(JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout).heldReason).toBe(line);
    expect((await pipeline.cli(['approve', runId])).code).toBe(0);
  });
});
