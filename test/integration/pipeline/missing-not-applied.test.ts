import { describe, expect, it } from 'vitest';
import type { CatalogRow } from '../support/catalog.js';
import { requestCounts, usePipeline } from '../support/pipeline.js';

const S1: CatalogRow[] = [
  { sku: 'A1', name: 'Alpha', price: '10.00', quantity: '5' },
  { sku: 'B2', name: 'Beta', price: '20.00', quantity: '6' },
  { sku: 'C3', name: 'Gamma', price: '30.00', quantity: '7' },
];
const WITHOUT_C3 = S1.slice(0, 2);

describe('--missing that a run cannot apply is said, never silent', () => {
  const pipeline = usePipeline();

  async function run(rows: CatalogRow[], ...args: string[]) {
    const result = await pipeline.cli(['run', await pipeline.csv('catalog.csv', rows), ...args]);
    expect(result.code, result.stderr).toBe(0);
    return result.stdout;
  }

  it('an --incremental run that reads no product says --missing was not applied, and plans no deactivation', async () => {
    await run(S1, '--incremental');
    pipeline.sandbox.resetStats();

    const stdout = await run(WITHOUT_C3, '--incremental', '--missing', 'quantity=0');

    expect(requestCounts(pipeline.sandbox.stats()).total).toBe(0);
    expect(stdout).toMatch(/^plan {6}up to 2 requests;/m);
    expect(stdout).not.toContain('one per product gone from the source');
    expect(stdout).toContain(
      '  deactivate none: --missing not applied, no product list read (--incremental relied on its record): the next full read applies it',
    );
    // The next full read deactivates it.
    const full = await run(WITHOUT_C3, '--missing', 'quantity=0', '--max-missing', '50%');
    expect(full).toContain('one per product gone from the source (--missing)');
    expect(full).toContain('  deactivate 1 deactivated');
    expect(pipeline.products().find((product) => product.sku === 'C3')?.quantity).toBe(0);
  });

  it('--only update with --missing is refused before any request: the run could deactivate nothing (docs/options.md)', async () => {
    await run(S1);
    pipeline.sandbox.resetStats();

    const result = await pipeline.cli([
      'run',
      await pipeline.csv('catalog.csv', WITHOUT_C3),
      '--only',
      'update',
      '--missing',
      'quantity=0',
    ]);

    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'catalog-sync: --missing: a run with --only update leaves rows out, so it can tell no product gone from the source and deactivates nothing: drop one of them\n',
    );
    expect(pipeline.sandbox.stats().total).toBe(0);
    expect(pipeline.products().find((product) => product.sku === 'C3')?.quantity).toBe(7);
  });
});
