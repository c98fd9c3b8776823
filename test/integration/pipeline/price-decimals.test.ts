import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editedSample } from '../../fixtures-real/edited-sample.js';
import { parseCsv } from '../support/catalog.js';
import { bySku, requestCounts, usePipeline } from '../support/pipeline.js';

/**
 * Issue 29, point 4: a German PrestaShop 1.6 store's import file (ISO-8859-1, `;`) keeps its net
 * prices as PrestaShop stores them, with six decimals. The sandbox, like any API that keeps cents,
 * refuses a price with more than two decimals (400).
 */
const NET: Array<[sku: string, net: string, sent: number]> = [
  ['RP-demo_1', '125.966387', 125.97],
  ['RP-demo_2', '50.411765', 50.41],
  ['RP-demo_3', '1260.495798', 1260.5],
  // An exact half: 8.395 as a double is 8.39499…, which a float rounding would send as 8.39.
  ['RP-demo_4', '8.395', 8.4],
  ['RP-demo_5', '0.831933', 0.83],
  ['RP-demo_6', '16.798319', 16.8],
  // Net of tax with a gross that rounding the net first would miss by a cent (148.77).
  ['RP-demo_7', '125.023757', 125.02],
];

describe('a PrestaShop export whose prices carry six decimals, against an API that keeps cents', () => {
  const pipeline = usePipeline();

  /** The real sample with the store's net prices and a German name, written as PrestaShop writes it. */
  async function germanExport(): Promise<string> {
    return editedSample(pipeline.dir, 'latin1', (cell, i) => {
      cell('Price tax excluded', NET[i]?.[1] ?? '');
      if (i === 0) cell('Name *', 'Kaffeemühle »Größe L«');
    });
  }

  async function run(source: string, report: string, ...args: string[]) {
    pipeline.sandbox.resetStats();
    const result = await pipeline.cli(['run', source, '--report', join(pipeline.dir, report), ...args]);
    const stats = pipeline.sandbox.stats();
    return { result, stats, writes: requestCounts(stats), report: parseCsv(await pipeline.readText(report)) };
  }

  it('creates every row with its price in cents, says so in the row, and a re-run makes no write', async () => {
    const source = await germanExport();

    const first = await run(source, 'first.csv');

    expect(first.result.stderr).toBe('');
    expect(first.result.code).toBe(0);
    expect(first.stats.byStatus['400'] ?? 0).toBe(0);
    expect(first.report.map((line) => [line.key, line.action, line.status])).toEqual(
      NET.map(([sku]) => [sku, 'create', 'ok']),
    );
    const products = bySku(pipeline.products());
    expect(NET.map(([sku]) => products.get(sku)?.price)).toEqual(NET.map(([, , sent]) => sent));
    expect(products.get('RP-demo_1')?.name).toBe('Kaffeemühle »Größe L«');
    expect(first.report[0]?.note).toContain('price 125.966387 → 125.97 (rounded half up to 2 decimals)');
    expect(first.report[3]?.note).toContain('price 8.395 → 8.40 (rounded half up to 2 decimals)');

    const second = await run(source, 'second.csv');

    expect(second.writes).toMatchObject({ creates: 0, updates: 0 });
    expect(second.stats.writesApplied).toBe(0);
    expect(second.report.map((line) => line.action)).toEqual(NET.map(() => 'unchanged'));
    expect(second.result.code).toBe(0);
  });

  it('with --tax-rate 19%: the gross comes from the unrounded net, then is rounded; a re-run makes no write', async () => {
    const source = await germanExport();

    const first = await run(source, 'first.csv', '--tax-rate', '19%');

    expect(first.stats.byStatus['400'] ?? 0).toBe(0);
    const products = bySku(pipeline.products());
    // 125.966387 × 1.19 = 149.90000053; 125.023757 × 1.19 = 148.77827083 (125.02 × 1.19 = 148.7738).
    expect(products.get('RP-demo_1')?.price).toBe(149.9);
    expect(products.get('RP-demo_7')?.price).toBe(148.78);
    expect(first.report[6]?.note).toContain(
      'price 125.023757 + 19% tax → 148.78 (rounded half up to 2 decimals)',
    );

    const second = await run(source, 'second.csv', '--tax-rate', '19%');

    expect(second.stats.writesApplied).toBe(0);
    expect(second.report.map((line) => line.action)).toEqual(NET.map(() => 'unchanged'));
  });

  it('takes the decimals from a job file (priceDecimals: 0 sends whole euros)', async () => {
    await germanExport();
    await mkdir(join(pipeline.dir, 'jobs'), { recursive: true });
    const job = join(pipeline.dir, 'jobs', 'nightly.yml');
    await writeFile(job, 'source: export.csv\npriceDecimals: 0\nreport: report.csv\n', 'utf8');

    const result = await pipeline.cli(['run', '--job', job]);

    expect(pipeline.sandbox.stats().byStatus['400'] ?? 0).toBe(0);
    expect(bySku(pipeline.products()).get('RP-demo_1')?.price).toBe(126);
    const report = parseCsv(await pipeline.readText('report.csv'));
    expect(report[0]?.note).toContain('price 125.966387 → 126 (rounded half up to 0 decimals)');
    expect(result.stderr).toBe('');
  });

  it.each([
    ['9', 'catalog-sync: --price-decimals takes a whole number from 0 to 6'],
    ['cents', 'catalog-sync: --price-decimals takes a whole number from 0 to 6'],
  ])('--price-decimals %s is one line naming it (exit 2), before any request', async (value, line) => {
    const source = await germanExport();

    const result = await pipeline.cli(['run', source, '--price-decimals', value]);

    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      `${line} (the decimals of the currency's smallest unit, e.g. 2 for cents), not "${value}"`,
    ]);
    expect(pipeline.sandbox.stats().total).toBe(0);
  });

  it('a job file priceDecimals that is not one is one line naming it (exit 2), before any request', async () => {
    await germanExport();
    await mkdir(join(pipeline.dir, 'jobs'), { recursive: true });
    const job = join(pipeline.dir, 'jobs', 'nightly.yml');
    await writeFile(job, 'source: export.csv\npriceDecimals: 2.5\n', 'utf8');

    const result = await pipeline.cli(['run', '--job', job]);

    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      'catalog-sync: nightly.yml: priceDecimals: must be a whole number from 0 to 6 (the decimals of the currency, e.g. 2 for cents)',
    ]);
    expect(pipeline.sandbox.stats().total).toBe(0);
  });
});
