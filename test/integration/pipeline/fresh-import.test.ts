import { describe, expect, it } from 'vitest';
import { catalogRows, priceNumber } from '../support/catalog.js';
import { bySku, requestCounts, usePipeline } from '../support/pipeline.js';

const ROWS = 250;

describe('a fresh import of a 250-row catalog (several chunks)', () => {
  const pipeline = usePipeline();

  it('creates exactly the source rows, with prices as numbers and non-ASCII names intact', async () => {
    const rows = catalogRows(ROWS);
    const source = await pipeline.csv('catalog.csv', rows);

    const result = await pipeline.cli(['run', source]);

    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const stored = bySku(pipeline.products());
    expect(stored.size).toBe(ROWS);
    expect(pipeline.products()).toHaveLength(ROWS);
    for (const row of rows) {
      expect(stored.get(row.sku)).toEqual({ sku: row.sku, name: row.name, price: priceNumber(row.price) });
    }
    expect(stored.get('SKU-00006')?.name).toBe('Crème brûlée – 1 kg #6');
    expect(stored.get('SKU-00002')?.name).toBe('抹茶 – 100 g #2');
  });

  it('spends one list read and one create per row, nothing else', async () => {
    const source = await pipeline.csv('catalog.csv', catalogRows(ROWS));

    await pipeline.cli(['run', source]);

    const stats = pipeline.sandbox.stats();
    expect(stats.byRoute).toEqual({ 'GET /products': 1, 'POST /products': ROWS });
    expect(stats.byStatus).toEqual({ '200': 1, '201': ROWS });
  });

  it('says in its summary that every row was created', async () => {
    const source = await pipeline.csv('catalog.csv', catalogRows(ROWS));

    const { stdout } = await pipeline.cli(['run', source]);

    expect(stdout).toMatch(/^run \S+: done in /m);
    expect(stdout).toContain(
      `rows      ${ROWS}: ${ROWS} created, 0 updated, 0 unchanged, 0 invalid, 0 failed`,
    );
    expect(stdout).toContain(`requests  ${ROWS + 1} (${ROWS} writes)`);
  });
});

describe('the same catalog run again, unchanged', () => {
  const pipeline = usePipeline();

  it('sends no create and no update, and reports every row unchanged', async () => {
    const source = await pipeline.csv('catalog.csv', catalogRows(ROWS));
    expect((await pipeline.cli(['run', source])).code).toBe(0);
    pipeline.sandbox.resetStats();

    const second = await pipeline.cli(['run', source]);

    expect(second.code).toBe(0);
    const counts = requestCounts(pipeline.sandbox.stats());
    expect(counts.creates).toBe(0);
    expect(counts.updates).toBe(0);
    expect(counts.total).toBe(counts.lists);
    expect(second.stdout).toContain(
      `rows      ${ROWS}: 0 created, 0 updated, ${ROWS} unchanged, 0 invalid, 0 failed`,
    );
    expect(second.stdout).toContain('(0 writes)');
    expect(pipeline.products()).toHaveLength(ROWS);
  });

  it('reads the seller products one page at a time, each page once', async () => {
    const source = await pipeline.csv('catalog.csv', catalogRows(ROWS));
    await pipeline.cli(['run', source]);
    pipeline.sandbox.resetStats();

    await pipeline.cli(['run', source]);

    // 250 products at the sandbox's 100 per page.
    expect(pipeline.sandbox.stats().byRoute).toEqual({ 'GET /products': 3 });
  });
});
