import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CatalogRow, parseCsv } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { bySku, MAIN_SELLER, requestCounts, usePipeline } from '../support/pipeline.js';

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

  it('approve reads the held products again: one already as the source says is not written', async () => {
    await incremental('s1a.csv', FIRST);
    const raised = catalog(['10.50', '20.50', '30.50']);
    const held = await incremental('raised.csv', raised, '--max-updates', '1');
    expect(held.result.code, held.result.stderr).toBe(5);
    expect(held.requests).toEqual([]);
    const runId = runIdOf(held.result.stdout);
    const a1 = idOf('A1');
    pipeline.sandbox.editProduct(MAIN_SELLER, a1, { price: 10.5 });
    pipeline.sandbox.resetStats();

    const approved = await pipeline.cli(['approve', runId]);

    expect(approved.code, approved.stderr).toBe(0);
    const counts = requestCounts(pipeline.sandbox.stats());
    // Three products of a catalog of three: one page of the list costs less than three reads by id.
    expect(counts).toMatchObject({ lists: 1, updates: 2, total: 3 });
    expect(
      pipeline.sandbox
        .requests()
        .filter((r) => r.method === 'PUT')
        .map((r) => r.query.id),
    ).toEqual(expect.not.arrayContaining([a1]));
    expect([priceOf('A1'), priceOf('B2'), priceOf('C3')]).toEqual([10.5, 20.5, 30.5]);
    const report = parseCsv((await pipeline.cli(['report', runId])).stdout);
    expect(report.map((line) => [line.key, line.action, line.status, line.note])).toEqual([
      ['A1', 'unchanged', 'ok', 'changed on the marketplace since it was held: re-planned'],
      ['B2', 'update', 'ok', ''],
      ['C3', 'update', 'ok', ''],
    ]);
  });

  it('approve --rows reads only the approved row’s product, and a product gone since is created again without a PUT', async () => {
    const rows = Array.from({ length: 250 }, (_, i) => ({
      sku: `S${i}`,
      name: `Product ${i}`,
      price: '10.00',
    }));
    await incremental('many.csv', rows);
    const changed = rows.map((row, i) => (i === 3 || i === 4 ? { ...row, price: '99.00' } : row));
    const held = await incremental('changed.csv', changed, '--max-price-change', '50%');
    expect(held.result.code, held.result.stderr).toBe(5);
    const runId = runIdOf(held.result.stdout);
    const gone = idOf('S3');
    pipeline.sandbox.deleteProduct(MAIN_SELLER, gone);
    pipeline.sandbox.resetStats();

    const approved = await pipeline.cli(['approve', runId, '--rows', '4']);

    // Row 5 is still held.
    expect(approved.code, approved.stderr).toBe(5);
    const sent = pipeline.sandbox.requests().map((request) => `${request.method} ${request.query.id ?? ''}`);
    // Row 4 is S3: its product read by id (404: gone), then created once, no PUT sent to it; S4 (row
    // 5) stays held and unread. (The create's claim finds the key in the record and reads it once more
    // before it creates, as any run's create of a recorded key does.)
    expect(sent.filter((line) => line.startsWith('GET'))).toEqual(expect.arrayContaining([`GET ${gone}`]));
    expect(sent.filter((line) => !line.startsWith('GET'))).toEqual(['POST ']);
    expect(sent).not.toContain(`GET ${idOf('S4')}`);
    expect(bySku(pipeline.products()).get('S3')?.price).toBe(99);
    expect(bySku(pipeline.products()).get('S4')?.price).toBe(10);
  });

  it('approve of one held row in a larger catalog reads that product by id, not the list', async () => {
    const rows = Array.from({ length: 250 }, (_, i) => ({
      sku: `S${i}`,
      name: `Product ${i}`,
      price: `${10 + i}.00`,
    }));
    await incremental('many.csv', rows);
    const changed = rows.map((row, i) => (i === 7 ? { ...row, price: '0.17' } : row));
    const held = await incremental('changed.csv', changed, '--max-price-change', '50%');
    expect(held.result.code, held.result.stderr).toBe(5);
    expect(held.requests).toEqual([]);
    pipeline.sandbox.resetStats();

    const approved = await pipeline.cli(['approve', runIdOf(held.result.stdout)]);

    expect(approved.code, approved.stderr).toBe(0);
    expect(pipeline.sandbox.requests().map((request) => request.method)).toEqual(['GET', 'PUT']);
    expect(bySku(pipeline.products()).get('S7')?.price).toBe(0.17);
  });

  function idOf(sku: string): string {
    return String(pipeline.products().find((product) => product.sku === sku)?.id);
  }
});
