import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { catalogRows, parseCsv } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { bySku, requestCounts, usePipeline } from '../support/pipeline.js';

/** 100 products with a stock of 4: the nightly feed, and what `--missing quantity=0` changes. */
const FEED = catalogRows(100).map((row) => ({ ...row, quantity: '4' }));
const LOST = FEED[52] as (typeof FEED)[number];
/** The same feed, the 53rd product's SKU cell blank (a spreadsheet lost it): row 53 as the report numbers rows. */
const KEYLESS = FEED.map((row) => (row === LOST ? { ...row, sku: '' } : row));

/**
 * A source row with no readable key cannot tell which product it stands for: any product the run
 * finds missing may be it. A `--missing` run then sends no deactivation without the user's say: it
 * is held as `--max-missing` holds it (the whole run, exit 5), and `approve` sends it.
 */
describe('--missing with a row that has no key', () => {
  const pipeline = usePipeline();

  /** `first` synced, then `later` run with `--missing quantity=0`: held (exit 5), nothing sent or changed. */
  async function heldAfter(
    first: typeof FEED,
    later: typeof FEED,
  ): Promise<{ stdout: string; runId: string }> {
    expect((await pipeline.cli(['run', await pipeline.csv('first.csv', first)])).code).toBe(0);
    const before = pipeline.products();
    pipeline.sandbox.resetStats();
    const held = await pipeline.cli([
      'run',
      await pipeline.csv('later.csv', later),
      '--missing',
      'quantity=0',
    ]);
    expect(held.code, held.stdout + held.stderr).toBe(5);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
    expect(pipeline.products()).toEqual(before);
    return { stdout: held.stdout, runId: runIdOf(held.stdout) };
  }

  it('holds the run: no PUT of the product the row may stand for, exit 5; approve sends it', async () => {
    // One price changed as well: the rest of the run is held with it, as --max-missing holds it.
    const changed = KEYLESS.map((row, i) => (i === 0 ? { ...row, price: '50.00' } : row));
    const held = await heldAfter(FEED, changed);

    const reason =
      'row 53 has no sku: the product it stands for may be among the 1 missing: nothing was sent';
    expect(held.stdout).toContain(`  held      ${reason}`);
    const runId = held.runId;
    expect(held.stdout).toContain(`  approve   catalog-sync approve ${runId}`);
    const status = JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout);
    expect(status).toMatchObject({ state: 'held', heldReason: reason });
    const report = parseCsv((await pipeline.cli(['report', runId])).stdout);
    expect(report.find((l) => l.row === '53')).toMatchObject({ action: 'invalid', error: 'missing sku' });
    const deactivations = report.filter((l) => l.action === 'deactivate');
    expect(deactivations).toEqual([
      expect.objectContaining({ key: LOST.sku, status: 'held', error: reason }),
    ]);

    pipeline.sandbox.resetStats();
    const approved = await pipeline.cli(['approve', runId]);

    // Exit 1 as any run with an invalid row: the row without its SKU is still not sent.
    expect(approved.code, approved.stdout + approved.stderr).toBe(1);
    expect(approved.stdout).toContain(`approved 1 held row and 1 held deactivation of run ${runId}`);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 2 });
    const after = bySku(pipeline.products());
    expect(after.get(LOST.sku)?.quantity).toBe(0);
    expect(after.get(FEED[0]?.sku ?? '')?.price).toBe(50);
  });

  it('a SKU cell whose bytes cannot be read is a key-less row too', async () => {
    expect((await pipeline.cli(['run', await pipeline.csv('first.csv', FEED)])).code).toBe(0);
    // The file is UTF-8 (its names say so); the lost row's SKU ends in a Windows-1252 é.
    const path = await pipeline.csv('later.csv', FEED);
    const text = await readFile(path);
    const at = text.indexOf(`${LOST.sku},`);
    const bytes = Buffer.concat([
      text.subarray(0, at + LOST.sku.length),
      Buffer.from([0xe9]),
      text.subarray(at + LOST.sku.length),
    ]);
    await writeFile(path, bytes);
    pipeline.sandbox.resetStats();

    const held = await pipeline.cli(['run', path, '--missing', 'quantity=0']);

    expect(held.code, held.stdout + held.stderr).toBe(5);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ updates: 0 });
    expect(held.stdout).toContain(
      '  held      row 53 has no sku: the product it stands for may be among the 1 missing',
    );
  });

  it('a SKU a spreadsheet made a number (1.23457E+08) is a key-less row too: approve sends it', async () => {
    // SKUs as digits, as a spreadsheet reads them: the lost row's 123456789 saved as 1.23457E+08.
    const digits = FEED.map((row, i) => ({ ...row, sku: String(123456737 + i) }));
    const lost = digits[52] as (typeof digits)[number];
    expect(lost.sku).toBe('123456789');
    const mangled = digits.map((row) => (row === lost ? { ...row, sku: '1.23457E+08' } : row));
    const held = await heldAfter(digits, mangled);

    const reason =
      "row 53's sku 1.23457E+08 is not a key the tool can trust: the product it stands for may be among the 1 missing: nothing was sent";
    expect(held.stdout).toContain(`  held      ${reason}`);
    const runId = held.runId;
    const report = parseCsv((await pipeline.cli(['report', runId])).stdout);
    expect(report.find((l) => l.row === '53')).toMatchObject({
      action: 'invalid',
      key: '1.23457E+08',
      error: expect.stringContaining('was turned into a number by a spreadsheet'),
    });
    const deactivations = report.filter((l) => l.action === 'deactivate');
    expect(deactivations).toEqual([
      expect.objectContaining({ key: lost.sku, status: 'held', error: reason }),
    ]);

    pipeline.sandbox.resetStats();
    const approved = await pipeline.cli(['approve', runId]);

    expect(approved.code, approved.stdout + approved.stderr).toBe(1);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 1 });
    expect(bySku(pipeline.products()).get(lost.sku)?.quantity).toBe(0);
  });

  it('a dry run says the real run would be held for it', async () => {
    expect((await pipeline.cli(['run', await pipeline.csv('first.csv', FEED)])).code).toBe(0);
    const dry = await pipeline.cli([
      'run',
      await pipeline.csv('later.csv', KEYLESS),
      '--missing',
      'quantity=0',
      '--dry-run',
    ]);

    expect(dry.code, dry.stdout + dry.stderr).toBe(1);
    expect(dry.stdout).toContain(
      '  guard     a run without --dry-run would be held (exit 5): row 53 has no sku: the product it stands for may be among the 1 missing',
    );
  });

  it('rows with every cell blank (a spreadsheet saves trailing `,,,`) stand for no product: skipped, not held', async () => {
    // The next night's file: one price changed, the last product gone, two blank rows at the end.
    const blank = { sku: '', name: '', price: '', quantity: '' };
    const later = [
      ...FEED.slice(0, 99).map((row, i) => (i === 0 ? { ...row, price: '50.00' } : row)),
      blank,
      blank,
    ];
    expect((await pipeline.cli(['run', await pipeline.csv('first.csv', FEED)])).code).toBe(0);
    const path = await pipeline.csv('later.csv', later);
    expect((await readFile(path, 'utf8')).endsWith('\n,,,\n,,,\n')).toBe(true);
    pipeline.sandbox.resetStats();

    const sent = await pipeline.cli(['run', path, '--missing', 'quantity=0']);

    // No mistake in the file: exit 0, the blank rows reported and counted skipped, never silently.
    expect(sent.code, sent.stdout + sent.stderr).toBe(0);
    expect(sent.stdout).not.toContain('held');
    expect(sent.stdout).toContain('0 invalid, 0 failed, 2 skipped');
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 2 });
    const after = bySku(pipeline.products());
    expect(after.get(FEED[99]?.sku ?? '')?.quantity).toBe(0);
    expect(after.get(FEED[0]?.sku ?? '')?.price).toBe(50);
    expect(after.get(LOST.sku)?.quantity).toBe(4);
    const report = parseCsv((await pipeline.cli(['report', runIdOf(sent.stdout)])).stdout);
    expect(report.filter((l) => l.action === 'invalid')).toEqual([]);
    expect(report.filter((l) => l.action === 'skipped')).toEqual([
      expect.objectContaining({ row: '100', key: '', status: 'ok', error: 'blank row: every cell is empty' }),
      expect.objectContaining({ row: '101', key: '', status: 'ok', error: 'blank row: every cell is empty' }),
    ]);
  });

  it('a row with some cells blank but no sku is still invalid among blank rows (exit 1)', async () => {
    const blank = { sku: '', name: '', price: '', quantity: '' };
    const path = await pipeline.csv('later.csv', [...FEED.slice(0, 2), { ...blank, name: 'Mug' }, blank]);

    const sent = await pipeline.cli(['run', path]);

    expect(sent.code, sent.stdout + sent.stderr).toBe(1);
    const report = parseCsv((await pipeline.cli(['report', runIdOf(sent.stdout)])).stdout);
    expect(report.slice(2).map((l) => [l.row, l.action, l.error])).toEqual([
      ['3', 'invalid', 'missing sku'],
      ['4', 'skipped', 'blank row: every cell is empty'],
    ]);
  });

  it('nothing missing, or no row without a key: nothing is held', async () => {
    expect((await pipeline.cli(['run', await pipeline.csv('first.csv', FEED)])).code).toBe(0);
    // A new row without a SKU, every product still in the feed: no deactivation to hold.
    const extra = [...FEED, { sku: '', name: 'No SKU', price: '1.00', quantity: '1' }];
    const none = await pipeline.cli([
      'run',
      await pipeline.csv('extra.csv', extra),
      '--missing',
      'quantity=0',
    ]);
    expect(none.code, none.stdout + none.stderr).toBe(1);
    expect(none.stdout).not.toContain('held');

    // A row invalid for its price keeps its key: its product is not missing, and one gone is sent.
    const priced = FEED.slice(0, 99).map((row, i) => (i === 52 ? { ...row, price: 'abc' } : row));
    pipeline.sandbox.resetStats();
    const sent = await pipeline.cli([
      'run',
      await pipeline.csv('priced.csv', priced),
      '--missing',
      'quantity=0',
    ]);
    expect(sent.code, sent.stdout + sent.stderr).toBe(1);
    expect(sent.stdout).not.toContain('held');
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ updates: 1 });
    const after = bySku(pipeline.products());
    expect(after.get(FEED[99]?.sku ?? '')?.quantity).toBe(0);
    expect(after.get(LOST.sku)?.quantity).toBe(4);
  });
});
