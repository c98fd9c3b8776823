import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/cli/exit-codes.js';
import { parseCsv } from '../support/catalog.js';
import { MAIN_SELLER, requestCounts, usePipeline } from '../support/pipeline.js';

/** More products than a page holds (page size 3): the export must follow every page. */
const SEEDED = [
  { sku: 'P-1', name: 'Crème brûlée', price: 4.5, tags: ['dessert', 'french'], quantity: 3 },
  {
    sku: 'P-2',
    name: 'Tea, "Earl Grey"',
    price: 12,
    images: ['https://img.example/a.jpg', 'https://img.example/b.jpg'],
  },
  { sku: 'P-3', name: '=1+2 coffret', price: 19.99, description: '-5% on Mondays', active: true },
  { sku: 'P-4', name: '抹茶 – 100 g', price: 7.25, colour: 'green' },
  { sku: 'P-5', name: 'Plain lamp', price: 30, tags: [] },
  { sku: 'P-6', name: 'Chocolat Ōsaka 🍫', price: 0.5, quantity: 0 },
  { sku: 'P-7', name: 'Mug', price: 8, attributes: { size: 'L' } },
];

describe('catalog-sync products export', () => {
  const pipeline = usePipeline({ pageSize: 3 });

  it('writes every product of every page as CSV, id first, then the fields in code-point order', async () => {
    pipeline.sandbox.seedProducts(MAIN_SELLER, SEEDED);

    const result = await pipeline.cli(['products', 'export']);

    expect(result.code).toBe(0);
    expect(result.stderr).toBe('catalog-sync: 7 products exported\n');
    expect(requestCounts(pipeline.sandbox.stats()).lists).toBe(3);
    const header = result.stdout.split('\n')[0]?.split(',') ?? [];
    expect(header[0]).toBe('id');
    expect(header.slice(1)).toEqual([...header.slice(1)].sort());
    const rows = parseCsv(result.stdout);
    expect(rows.map((row) => row.sku)).toEqual(SEEDED.map((p) => p.sku));
    expect(rows[0]).toMatchObject({ tags: 'dessert, french', price: '4.5', quantity: '3' });
    // Formula-guarded, as every CSV this tool writes; a negative number would not be.
    expect(rows[2]).toMatchObject({ name: "'=1+2 coffret", description: "'-5% on Mondays", active: 'true' });
    expect(rows[6]?.attributes).toBe('{"size":"L"}');
  });

  it('imports back with `run` (generic preset) with no write, and exits 0', async () => {
    pipeline.sandbox.seedProducts(MAIN_SELLER, SEEDED);
    const out = join(pipeline.dir, 'products.csv');
    expect((await pipeline.cli(['products', 'export', '--out', out])).code).toBe(0);
    pipeline.sandbox.resetStats();

    const run = await pipeline.cli(['run', out, '--report', join(pipeline.dir, 'report.csv')]);

    expect(run.code).toBe(0);
    expect(run.stdout).toContain('preset generic');
    const counts = requestCounts(pipeline.sandbox.stats());
    expect({ creates: counts.creates, updates: counts.updates }).toEqual({ creates: 0, updates: 0 });
    const report = parseCsv(await pipeline.readText('report.csv'));
    expect(report.map((line) => line.action)).toEqual(SEEDED.map(() => 'unchanged'));
  });

  it('writes NDJSON, one product a line as the API gave it, when --out ends in .ndjson', async () => {
    const ids = pipeline.sandbox.seedProducts(MAIN_SELLER, SEEDED);
    const out = join(pipeline.dir, 'products.ndjson');

    const result = await pipeline.cli(['products', 'export', '--out', out]);

    expect(result.code).toBe(0);
    const lines = (await pipeline.readText('products.ndjson')).trim().split('\n');
    const products = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(products.map((p) => String(p.id))).toEqual(ids);
    expect(products[0]).toMatchObject({ ...SEEDED[0], id: Number(ids[0]) });
    expect(products[6]).toMatchObject({ attributes: { size: 'L' } });
  });

  // orders export names it jsonl, products export ndjson: either name works for both.
  it.each(['ndjson', 'jsonl'])('writes NDJSON to standard output with --format %s', async (format) => {
    pipeline.sandbox.seedProducts(MAIN_SELLER, SEEDED);

    const result = await pipeline.cli(['products', 'export', '--format', format]);

    expect(result.code).toBe(0);
    expect(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).sku),
    ).toEqual(SEEDED.map((p) => p.sku));
  });

  it('exits 3 with one line when the key is rejected', async () => {
    const result = await pipeline.cli(['products', 'export'], { SELLER_API_KEY: 'not-a-key' });

    expect(result.code).toBe(3);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  // It exited 2 ("usage or configuration error") where `ping` exits 4 on the same answer.
  it('exits 4 on a 429 (the daily limit spent), in the line ping gives', async () => {
    pipeline.sandbox.seedProducts(MAIN_SELLER, SEEDED);
    pipeline.sandbox.setFaults({ dailyLimit: 0 });

    const result = await pipeline.cli(['products', 'export']);

    expect(result.code).toBe(ExitCode.pausedDailyLimit);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(
          `^catalog-sync: the key in SELLER_API_KEY is valid for ${pipeline.sandbox.baseUrl.replace(/[.]/g, '\\.')}, ` +
            "but the seller's daily request limit is spent until (?:\\d{4}-\\d\\d-\\d\\d )?\\d\\d:\\d\\d UTC \\(in [^)]+\\) \\(429\\)$",
        ),
      ),
    ]);
  });
});
