import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CatalogRow, parseCsv } from '../support/catalog.js';
import { bySku, usePipeline } from '../support/pipeline.js';

/** The tester's catalog: three products, each price given. */
function catalog(prices: [string, string, string]): CatalogRow[] {
  return [
    { sku: 'A1', name: 'Alpha', price: prices[0], quantity: '5', description: 'first' },
    { sku: 'B2', name: 'Beta', price: prices[1], quantity: '6', description: 'second' },
    { sku: 'C3', name: 'Gamma', price: prices[2], quantity: '7', description: 'third' },
  ];
}

const FIRST = catalog(['10.00', '20.00', '30.00']);

describe('--incremental with the guards, when the run reads no product', () => {
  const pipeline = usePipeline();

  /** Runs `rows` with --incremental and `args`; resolves to the result and the requests it sent. */
  async function incremental(name: string, rows: CatalogRow[], ...args: string[]) {
    pipeline.sandbox.resetStats();
    const result = await pipeline.cli(['run', await pipeline.csv(name, rows), '--incremental', ...args]);
    return { result, requests: pipeline.sandbox.requests() };
  }

  const priceOf = (sku: string) => bySku(pipeline.products()).get(sku)?.price;

  it('--max-price-change weighs the new price against the one this tool last sent, and holds it', async () => {
    expect((await incremental('s1a.csv', FIRST)).result.code).toBe(0);
    const report = join(pipeline.dir, 'report.csv');

    const { result, requests } = await incremental(
      'g1b.csv',
      catalog(['10.00', '0.20', '30.00']),
      '--max-price-change',
      '50%',
      '--report',
      report,
    );

    expect(result.code, result.stderr).toBe(5);
    // No list read (the record is fresh), and nothing written: the one change is held.
    expect(requests).toEqual([]);
    expect(priceOf('B2')).toBe(20);
    const lines = parseCsv(await pipeline.readText('report.csv'));
    expect(lines.find((line) => line.key === 'B2')).toMatchObject({
      action: 'update',
      status: 'held',
      error:
        'price 20 → 0.2 (-99%) exceeds --max-price-change 50% (20: the price this tool last sent; the run read no product)',
    });
  });

  it('--max-price-change lets a move within the limit go, with one request', async () => {
    await incremental('s1a.csv', FIRST);

    const { result, requests } = await incremental(
      's1b.csv',
      catalog(['10.00', '21.00', '30.00']),
      '--max-price-change',
      '50%',
    );

    expect(result.code, result.stderr).toBe(0);
    expect(requests.map((request) => [request.method, request.body])).toEqual([['PUT', { price: 21 }]]);
    expect(priceOf('B2')).toBe(21);
  });
});
