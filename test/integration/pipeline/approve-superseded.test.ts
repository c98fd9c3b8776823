import { describe, expect, it } from 'vitest';
import { type CatalogRow, parseCsv } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { requestCounts, usePipeline } from '../support/pipeline.js';

/** Whole prices, so that ×10 is always a move the row guard holds. */
function catalog(count: number): CatalogRow[] {
  return Array.from({ length: count }, (_, i) => ({
    sku: `S-${i + 1}`,
    name: `Product ${i + 1}`,
    price: `${i + 11}.00`,
  }));
}

/** `rows` with the prices of the first `moved` of them ten times higher. */
function tenfold(rows: CatalogRow[], moved: number): CatalogRow[] {
  return rows.map((row, i) => (i < moved ? { ...row, price: String(Number(row.price) * 10) } : row));
}

describe('approve: held rows a later run superseded', () => {
  // Several pages of products: a read of the list would show as several GETs.
  const pipeline = usePipeline({ pageSize: 10 });

  /** The catalog synced, then `moved` of its prices held by --max-price-change; the held run's id. */
  async function heldRun(rows: CatalogRow[], moved: number, args: string[] = []): Promise<string> {
    const source = await pipeline.csv('cat.csv', rows);
    expect((await pipeline.cli(['run', source])).code).toBe(0);
    const held = await pipeline.cli([
      'run',
      await pipeline.csv('cat.csv', tenfold(rows, moved)),
      '--max-price-change',
      '50%',
      ...args,
    ]);
    expect(held.code).toBe(5);
    return runIdOf(held.stdout);
  }

  it('with every held row superseded, approve sends no request and says none was approved', async () => {
    const rows = catalog(50);
    const heldId = await heldRun(rows, 1);
    // The same file without the guard: it sends the new price itself.
    const later = await pipeline.cli(['run', await pipeline.csv('cat.csv', tenfold(rows, 1))]);
    expect(later.code).toBe(0);
    const laterId = runIdOf(later.stdout);
    pipeline.sandbox.resetStats();

    const approved = await pipeline.cli(['approve', heldId]);

    expect(approved.code).toBe(0);
    expect(requestCounts(pipeline.sandbox.stats()).total).toBe(0);
    expect(approved.stdout.split('\n')[0]).toBe(
      `approved 0 held rows of run ${heldId}; 1 superseded by run ${laterId}, whose source has it: not written`,
    );
    expect(approved.stdout).toMatch(/^run \S+: done in /m);
    expect(approved.stdout).toContain(
      'rows      50: 0 created, 0 updated, 49 unchanged, 0 invalid, 0 failed, 1 skipped',
    );
    expect(approved.stdout).toContain('notes     1 row carries a note');
    const report = parseCsv((await pipeline.cli(['report', heldId])).stdout);
    expect(report[0]).toMatchObject({
      action: 'skipped',
      status: 'ok',
      note: `superseded by run ${laterId}, whose source has it: not written`,
    });
  });

  it('approve --rows: the superseded row is not written, the others are; the summary counts both at once', async () => {
    const rows = catalog(12);
    const heldId = await heldRun(rows, 3);
    // A later run's source holds row 1's product only.
    const later = await pipeline.cli(['run', await pipeline.csv('one.csv', tenfold(rows, 1).slice(0, 1))]);
    expect(later.code).toBe(0);
    const laterId = runIdOf(later.stdout);
    pipeline.sandbox.resetStats();

    const approved = await pipeline.cli(['approve', heldId, '--rows', '1,2']);

    expect(approved.code).toBe(5);
    expect(approved.stdout.split('\n')[0]).toBe(
      `approved 1 held row of run ${heldId}; 1 superseded by run ${laterId}, whose source has it: not written`,
    );
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 1 });
    const { total } = requestCounts(pipeline.sandbox.stats());
    expect(approved.stdout).toContain(', 1 updated, 9 unchanged, 0 invalid, 0 failed, 1 skipped, 1 held');
    expect(approved.stdout).toContain('notes     1 row carries a note');
    expect(approved.stdout).toContain(
      'held      1 row held: its price moves more than --max-price-change 50%',
    );
    // The held run's read (two pages of 10) and its approve's requests, counted before the summary is printed.
    expect(approved.stdout).toContain(`requests  ${2 + total} (1 write)`);
  });

  it('approve --rows that leaves only held deactivations: the held line no longer counts rows', async () => {
    const rows = catalog(10).map((row) => ({ ...row, quantity: '5' }));
    const source = await pipeline.csv('cat.csv', rows);
    expect((await pipeline.cli(['run', source])).code).toBe(0);
    const held = await pipeline.cli([
      'run',
      await pipeline.csv('cat.csv', tenfold(rows, 1).slice(0, 9)),
      '--max-price-change',
      '50%',
      '--missing',
      'quantity=0',
    ]);
    expect(held.code).toBe(5);
    const heldId = runIdOf(held.stdout);

    const approved = await pipeline.cli(['approve', heldId, '--rows', '1']);

    expect(approved.code).toBe(5);
    expect(approved.stdout).toContain(
      'rows      9: 0 created, 1 updated, 8 unchanged, 0 invalid, 0 failed\n',
    );
    expect(approved.stdout).toContain('deactivate 1 held');
    expect(approved.stdout).not.toMatch(/rows? held: /);
    expect(approved.stdout).toMatch(/^ {2}held {6}no row held; 1 deactivation held with the run/m);
  });
});
