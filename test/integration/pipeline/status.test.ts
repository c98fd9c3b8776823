import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { MAIN_SELLER, usePipeline } from '../support/pipeline.js';

describe('`status` after a run', () => {
  const pipeline = usePipeline();

  /** A run with creates, an update, unchanged rows, an invalid row and a missing remote product. */
  async function mixedRun() {
    pipeline.sandbox.seedProducts(MAIN_SELLER, [
      { sku: 'SKU-00001', name: 'Stale name', price: 1 },
      { sku: 'GONE', name: 'Not in the source', price: 1 },
    ]);
    const rows = [...catalogRows(5), { sku: 'BAD', name: 'Bad', price: 'n/a' }];
    rows[0]!.price = '1.00';
    const result = await pipeline.cli(['run', await pipeline.csv('catalog.csv', rows)]);
    await pipeline.cli(['run', await pipeline.csv('catalog.csv', rows)]);
    return runIdOf(result.stdout);
  }

  it('--json shows the run done, with its counts', async () => {
    const firstRunId = await mixedRun();

    const latest = JSON.parse((await pipeline.cli(['status', '--json'])).stdout);
    const first = JSON.parse((await pipeline.cli(['status', firstRunId, '--json'])).stdout);

    expect(first).toMatchObject({
      id: firstRunId,
      state: 'done',
      total: 6,
      settled: 6,
      counts: { created: 4, updated: 1, unchanged: 0, invalid: 1, failed: 0, missing: 1 },
    });
    expect(latest.id).not.toBe(firstRunId);
    expect(latest).toMatchObject({
      state: 'done',
      counts: { created: 0, updated: 0, unchanged: 5, invalid: 1, missing: 1 },
    });
  });

  it('shows the latest run as text when no id is given', async () => {
    await mixedRun();

    const status = await pipeline.cli(['status']);

    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^run \S+: done$/m);
    expect(status.stdout).toContain('rows      6 settled of 6');
    expect(status.stdout).toContain('0 created, 0 updated, 5 unchanged, 1 invalid, 0 failed, 1 missing');
  });

  it("counts every row as the summary does: a Shopify export's image row is merged", async () => {
    // 5 rows: 4 products, and an image-only row merged into its handle's first row.
    const sample = join(import.meta.dirname, '../../../fixtures/samples/shopify.csv');
    const run = await pipeline.cli(['run', sample]);
    expect(run.stdout).toContain(
      '  rows      5: 4 created, 0 updated, 0 unchanged, 0 invalid, 0 failed, 1 merged\n',
    );

    const status = await pipeline.cli(['status']);

    expect(status.stdout).toContain('  rows      5 settled of 5\n');
    expect(status.stdout).toContain(
      '  outcome   4 created, 0 updated, 0 unchanged, 0 invalid, 0 failed, 1 merged, 0 missing\n',
    );
  });

  it('counts deactivations: deactivated, already so, held (text and --json)', async () => {
    const rows = catalogRows(10).map((row) => ({ ...row, stock_level: '5' }));
    await pipeline.cli(['run', await pipeline.csv('all.csv', rows)]);
    const gone = rows[9]?.sku ?? '';
    const alreadyZero = pipeline.products().find((p) => p.sku === rows[8]?.sku);
    pipeline.sandbox.editProduct(MAIN_SELLER, String(alreadyZero?.id), { stock_level: '0' });
    const night = ['--missing', 'stock_level=0', '--max-missing', '2'];
    await pipeline.cli(['run', await pipeline.csv('eight.csv', rows.slice(0, 8)), ...night]);

    const text = (await pipeline.cli(['status'])).stdout;
    const json = JSON.parse((await pipeline.cli(['status', '--json'])).stdout);

    expect(text).toContain('  deactivate 1 deactivated, 1 already so (--missing)');
    expect(json.counts).toMatchObject({
      deactivated: 1,
      alreadySo: 1,
      deactivateHeld: 0,
      deactivateFailed: 0,
    });
    expect(pipeline.products().find((p) => p.sku === gone)?.stock_level).toBe('0');

    // Five gone, more than --max-missing 2: held.
    await pipeline.cli(['run', await pipeline.csv('five.csv', rows.slice(0, 5)), ...night]);
    expect((await pipeline.cli(['status'])).stdout).toContain(
      '  deactivate 2 already so, 3 held (--missing)',
    );
  });

  it('never shows the API key', async () => {
    await mixedRun();

    const text = await pipeline.cli(['status']);
    const json = await pipeline.cli(['status', '--json']);

    expect(text.stdout + json.stdout).not.toContain(pipeline.env.SELLER_API_KEY);
  });

  it('exits 2 with one line when there is no run yet', async () => {
    const status = await pipeline.cli(['status']);

    expect(status.code).toBe(2);
    expect(status.stderr.trim().split('\n')).toEqual([expect.stringMatching(/no run yet/)]);
  });
});
