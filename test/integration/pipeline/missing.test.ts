import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogRows, parseCsv } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { bySku, MAIN_SELLER, requestCounts, usePipeline } from '../support/pipeline.js';

/**
 * 100 products with a stock of their own (5 to 11), so that giving it back is seen: a field of the
 * marketplace's own, `stock_level` (a generic file's `stock` is the quantity).
 */
const FEED = catalogRows(100).map((row, i) => ({ ...row, stock_level: String(5 + (i % 7)) }));
const HAND_MADE = Array.from({ length: 5 }, (_, i) => ({
  sku: `HAND-${i + 1}`,
  name: `Hand ${i + 1}`,
  price: 9,
  stock_level: '4',
}));

describe('--missing: managed products gone from the feed, night after night', () => {
  const pipeline = usePipeline();

  it.each([
    [
      ['--missing', 'stock'],
      'catalog-sync: --missing takes field=value pairs such as quantity=0, not "stock"',
    ],
    [['--missing', '=1'], 'catalog-sync: --missing takes field=value pairs such as quantity=0, not "=1"'],
    [
      ['--missing', 'stock_level=0', '--max-missing', '120%'],
      'catalog-sync: --max-missing takes N or P% with P up to 100, not "120%"',
    ],
    [
      ['--missing', 'stock_level=0', '--max-missing', '1.5'],
      'catalog-sync: --max-missing takes a product count (e.g. 5) or a percentage (e.g. 10%), not "1.5"',
    ],
    [
      ['--max-missing', '5'],
      'catalog-sync: --max-missing guards --missing: give --missing field=value too (e.g. --missing quantity=0; job files: missing:)',
    ],
  ])('%j is one line and exit 2, before any request', async (flags, line) => {
    const result = await pipeline.cli(['run', await pipeline.csv('feed.csv', FEED.slice(0, 2)), ...flags]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(line);
    expect(pipeline.sandbox.stats().total).toBe(0);
  });

  it("a job file's maxMissing without missing is one line naming it as written, exit 2, before any request", async () => {
    const job = join(pipeline.dir, 'nightly.yml');
    await writeFile(job, `source: ${await pipeline.csv('feed.csv', FEED.slice(0, 2))}\nmaxMissing: 1\n`);
    const result = await pipeline.cli(['run', '--job', job]);
    expect(result.code).toBe(2);
    // Named where it was written, as every other job file key is (docs/options.md).
    expect(result.stderr.trim()).toBe(
      'catalog-sync: maxMissing in nightly.yml guards --missing: give --missing field=value too (e.g. --missing quantity=0; job files: missing:)',
    );
    expect(pipeline.sandbox.stats().total).toBe(0);
  });

  async function night(name: string, rows: typeof FEED, ...extra: string[]) {
    pipeline.sandbox.resetStats();
    const report = join(pipeline.dir, `${name}.report.csv`);
    const result = await pipeline.cli([
      'run',
      await pipeline.csv(`${name}.csv`, rows),
      '--missing',
      'stock_level=0',
      '--report',
      report,
      ...extra,
    ]);
    const lines = parseCsv(await pipeline.readText(`${name}.report.csv`));
    return { ...result, lines, counts: requestCounts(pipeline.sandbox.stats()) };
  }

  it('deactivates the dropped ones once, leaves hand-made ones alone, holds a truncated feed, and gives the stock back', async () => {
    pipeline.sandbox.seedProducts(MAIN_SELLER, HAND_MADE);
    expect((await pipeline.cli(['run', await pipeline.csv('first.csv', FEED)])).code).toBe(0);
    const handMade = () =>
      [...bySku(pipeline.products()).values()].filter((p) => String(p.sku).startsWith('HAND-'));
    const handBefore = handMade();

    // 10 dropped: exactly 10 PUTs, each of stock only; the 5 hand-made products are only reported.
    const ninety = await night('ninety', FEED.slice(0, 90));
    expect(ninety.code).toBe(0);
    expect(ninety.counts).toMatchObject({ creates: 0, updates: 10 });
    const puts = pipeline.sandbox.requests().filter((r) => r.method === 'PUT');
    expect(puts.map((r) => r.body)).toEqual(Array(10).fill({ stock_level: '0' }));
    const stocks = bySku(pipeline.products());
    for (const row of FEED.slice(90)) expect(stocks.get(row.sku)?.stock_level).toBe('0');
    for (const row of FEED.slice(0, 90)) expect(stocks.get(row.sku)?.stock_level).toBe(row.stock_level);
    expect(handMade()).toEqual(handBefore);
    const extra = ninety.lines.filter((line) => line.row === '');
    expect(extra.filter((l) => l.action === 'deactivate').map((l) => [l.key, l.status])).toEqual(
      FEED.slice(90).map((row) => [row.sku, 'ok']),
    );
    expect(extra.filter((l) => l.action === 'missing')).toHaveLength(5);
    expect(ninety.stdout).toContain('10 deactivated');

    // The same feed again: already so, no write.
    const again = await night('again', FEED.slice(0, 90));
    expect(again.code).toBe(0);
    expect(again.counts).toMatchObject({ creates: 0, updates: 0 });
    const deactivated = again.lines.filter((l) => l.action === 'deactivate');
    expect(deactivated.map((l) => [l.status, l.note])).toEqual(Array(10).fill(['ok', 'already so']));

    // A feed missing 40%: 30 more would go (30 of 100 managed > 20%): held, exit 5, nothing written.
    const truncated = await night('truncated', FEED.slice(0, 60));
    expect(truncated.code).toBe(5);
    expect(truncated.counts).toMatchObject({ creates: 0, updates: 0 });
    const held = truncated.lines.filter((l) => l.status === 'held');
    expect(held).toHaveLength(30);
    expect(held.every((l) => l.action === 'deactivate')).toBe(true);
    expect(held[0]?.error).toBe(
      '30 of 100 managed products would be deactivated (30%), more than --max-missing 20%: nothing was sent',
    );
    expect(truncated.stdout).toMatch(/^run \S+: held/m);
    for (const row of FEED.slice(60, 90))
      expect(bySku(pipeline.products()).get(row.sku)?.stock_level).toBe(row.stock_level);

    // The full feed again: the 10 get their stock back with 10 writes, each noted `reactivated`.
    const full = await night('full', FEED);
    expect(full.code).toBe(0);
    expect(full.counts).toMatchObject({ creates: 0, updates: 10 });
    const back = bySku(pipeline.products());
    for (const row of FEED) expect(back.get(row.sku)?.stock_level).toBe(row.stock_level);
    const reactivated = full.lines.filter((l) => l.note === 'reactivated');
    expect(reactivated.map((l) => [l.row, l.action, l.status])).toEqual(
      FEED.slice(90).map((_, i) => [String(91 + i), 'update', 'ok']),
    );
    expect(full.lines.filter((l) => l.action === 'deactivate')).toEqual([]);
    expect(handMade()).toEqual(handBefore);
  });

  it('a re-imported export shows a deactivated product as it is: unchanged, no write, not noted reactivated', async () => {
    const rows = catalogRows(3).map((row, i) => ({ ...row, quantity: String(5 + i) }));
    expect((await pipeline.cli(['run', await pipeline.csv('all.csv', rows)])).code).toBe(0);
    const gone = rows[2]?.sku ?? '';
    const two = await pipeline.cli([
      'run',
      await pipeline.csv('two.csv', rows.slice(0, 2)),
      '--missing',
      'quantity=0',
      '--max-missing',
      '1',
    ]);
    expect(two.stdout).toContain('1 deactivated');
    expect(bySku(pipeline.products()).get(gone)?.quantity).toBe(0);
    const exported = join(pipeline.dir, 'export.csv');
    expect((await pipeline.cli(['products', 'export', '--out', exported])).code).toBe(0);

    pipeline.sandbox.resetStats();
    const again = await pipeline.cli([
      'run',
      exported,
      '--missing',
      'quantity=0',
      '--report',
      `${exported}.report`,
    ]);

    expect(again.code).toBe(0);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
    const lines = parseCsv(await pipeline.readText('export.csv.report'));
    expect(lines.find((line) => line.key === gone)).toMatchObject({
      action: 'unchanged',
      status: 'ok',
      note: '',
    });
    expect(again.stdout).not.toContain('a note');
  });

  it('a job file says missing: {stock_level: 0}, and revert puts a night of deactivations back', async () => {
    expect((await pipeline.cli(['run', await pipeline.csv('first.csv', FEED.slice(0, 10))])).code).toBe(0);
    const source = await pipeline.csv('nine.csv', FEED.slice(0, 9));
    await mkdir(join(pipeline.dir, 'jobs'));
    await writeFile(
      join(pipeline.dir, 'jobs', 'nightly.yml'),
      `source: ${source}\nmissing: {stock_level: 0}\nmaxMissing: 1\n`,
    );

    const night = await pipeline.cli(['run', '--job', join(pipeline.dir, 'jobs', 'nightly.yml')]);
    expect(night.code).toBe(0);
    expect(bySku(pipeline.products()).get(FEED[9]?.sku ?? '')?.stock_level).toBe('0');

    pipeline.sandbox.resetStats();
    const reverted = await pipeline.cli(['revert', runIdOf(night.stdout)]);
    expect(reverted.code).toBe(0);
    expect(requestCounts(pipeline.sandbox.stats()).updates).toBe(1);
    expect(bySku(pipeline.products()).get(FEED[9]?.sku ?? '')?.stock_level).toBe(FEED[9]?.stock_level);
  });
});
