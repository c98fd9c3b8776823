import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CatalogRow, parseCsv } from '../support/catalog.js';
import { bySku, MAIN_SELLER, usePipeline } from '../support/pipeline.js';

/** The tester's catalog, with B2's price as given. */
function catalog(b2Price: string): CatalogRow[] {
  return [
    { sku: 'A1', name: 'Alpha', price: '10.00', quantity: '5', description: 'first' },
    { sku: 'B2', name: 'Beta', price: b2Price, quantity: '6', description: 'second' },
    { sku: 'C3', name: 'Gamma', price: '30.00', quantity: '7', description: 'third' },
  ];
}

const NOTE = 'price differs (create-only: not sent in an update)';

describe('--create-only-fields with --incremental: the record keeps only what was sent', () => {
  const pipeline = usePipeline();

  /** `run` of `rows` with `args`; resolves to its exit code, the requests it sent and B2's report line. */
  async function run(name: string, rows: CatalogRow[], ...args: string[]) {
    pipeline.sandbox.resetStats();
    const report = join(pipeline.dir, `${name}.report.csv`);
    const result = await pipeline.cli(['run', await pipeline.csv(name, rows), ...args, '--report', report]);
    expect(result.code, result.stderr).toBe(0);
    const lines = parseCsv(await pipeline.readText(`${name}.report.csv`));
    return {
      requests: pipeline.sandbox
        .requests()
        .map((request) => `${request.method} ${JSON.stringify(request.body)}`),
      b2: lines.find((line) => line.key === 'B2'),
    };
  }

  const b2Price = () => bySku(pipeline.products()).get('B2')?.price;

  it('a price left out as create-only is sent by the next run without the option (after a full read)', async () => {
    await run('s1a.csv', catalog('20.00'));
    // The first --incremental run reads the products: B2 differs in a create-only field.
    const held = await run('s1b.csv', catalog('21.00'), '--incremental', '--create-only-fields', 'price');
    expect(held.requests).toEqual(['GET undefined']);
    expect(held.b2).toMatchObject({ action: 'unchanged', note: NOTE });

    const next = await run('s1b-again.csv', catalog('21.00'), '--incremental');

    expect(next.requests).toEqual(['PUT {"price":21}']);
    expect(next.b2).toMatchObject({ action: 'update', status: 'ok', note: '' });
    expect(b2Price()).toBe(21);
  });

  it('a run that reads no product says the create-only field differs from what was last sent, and records nothing of it', async () => {
    await run('s1a.csv', catalog('20.00'), '--incremental');

    const blind = await run('s1b.csv', catalog('21.00'), '--incremental', '--create-only-fields', 'price');
    expect(blind.requests).toEqual([]);
    expect(blind.b2).toMatchObject({ action: 'unchanged', note: NOTE });

    const next = await run('s1b-again.csv', catalog('21.00'), '--incremental');
    expect(next.requests).toEqual(['PUT {"price":21}']);
    expect(b2Price()).toBe(21);
  });
});

describe('--incremental: an update at a full read records the fields the product showed as the source says', () => {
  const pipeline = usePipeline();

  it('so the next run, from the record alone, sends nothing', async () => {
    pipeline.sandbox.seedProducts(MAIN_SELLER, [
      { sku: 'A1', name: 'Alpha', price: 10, quantity: 5, description: 'first' },
    ]);
    const rows = [{ sku: 'A1', name: 'Alpha', price: '11.00', quantity: '5', description: 'first' }];
    const first = await pipeline.cli(['run', await pipeline.csv('a.csv', rows), '--incremental']);
    expect(first.code, first.stderr).toBe(0);
    expect(
      pipeline.sandbox
        .requests()
        .filter((r) => r.method === 'PUT')
        .map((r) => r.body),
    ).toEqual([{ price: 11 }]);
    pipeline.sandbox.resetStats();

    const next = await pipeline.cli(['run', await pipeline.csv('a.csv', rows), '--incremental']);

    expect(next.code, next.stderr).toBe(0);
    expect(pipeline.sandbox.requests()).toEqual([]);
  });
});
