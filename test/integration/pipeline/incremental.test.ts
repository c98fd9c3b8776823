import { describe, expect, it } from 'vitest';
import { type CatalogRow, catalogRows, priceNumber } from '../support/catalog.js';
import { bySku, MAIN_SELLER, requestCounts, usePipeline } from '../support/pipeline.js';

/** The ids the sandbox gave each sku. */
function idsBySku(products: Array<Record<string, unknown>>): Map<string, string> {
  return new Map(products.map((product) => [String(product.sku), String(product.id)]));
}

describe('an incremental run after a few changes to the source', () => {
  const pipeline = usePipeline();

  async function firstRunThenChange(change: (rows: CatalogRow[]) => CatalogRow[]) {
    const rows = catalogRows(150);
    await pipeline.cli(['run', await pipeline.csv('v1.csv', rows)]);
    const ids = idsBySku(pipeline.products());
    pipeline.sandbox.resetStats();
    const changed = change(rows.map((row) => ({ ...row })));
    const result = await pipeline.cli(['run', await pipeline.csv('v2.csv', changed)]);
    return { rows: changed, ids, result };
  }

  it('writes exactly the changed and the new rows', async () => {
    const { rows, ids, result } = await firstRunThenChange((rows) => {
      rows[3]!.price = '1234.56';
      rows[40]!.price = '0.99';
      rows[149]!.price = '7.00';
      rows[10]!.name = 'Renamed – ÄÖÜ';
      rows[120]!.name = 'Renamed again';
      return [...rows, ...catalogRows(4, 1000)];
    });

    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'rows      154: 4 created, 5 updated, 145 unchanged, 0 invalid, 0 failed',
    );
    const counts = requestCounts(pipeline.sandbox.stats());
    expect(counts).toMatchObject({ creates: 4, updates: 5 });
    const stored = bySku(pipeline.products());
    expect(stored.size).toBe(154);
    for (const row of rows) {
      expect(stored.get(row.sku)).toEqual({ sku: row.sku, name: row.name, price: priceNumber(row.price) });
    }
    const updatedIds = pipeline.sandbox
      .requests()
      .filter((request) => request.method === 'PUT')
      .map((request) => request.query.id)
      .sort();
    expect(updatedIds).toEqual(
      ['SKU-00004', 'SKU-00041', 'SKU-00150', 'SKU-00011', 'SKU-00121'].map((sku) => ids.get(sku)).sort(),
    );
  });

  it('sends only the changed fields in each PUT body', async () => {
    const { ids } = await firstRunThenChange((rows) => {
      rows[0]!.price = '99.95';
      rows[1]!.name = 'Only the name changes';
      rows[2]!.name = 'Both change';
      rows[2]!.price = '5.55';
      return rows;
    });

    const puts = pipeline.sandbox.requests().filter((request) => request.method === 'PUT');
    const bodyOf = (sku: string) => puts.find((request) => request.query.id === ids.get(sku))?.body;
    expect(puts).toHaveLength(3);
    expect(bodyOf('SKU-00001')).toEqual({ price: 99.95 });
    expect(bodyOf('SKU-00002')).toEqual({ name: 'Only the name changes' });
    expect(bodyOf('SKU-00003')).toEqual({ name: 'Both change', price: 5.55 });
  });

  it('compares prices as decimals: 12.50 in the source equals 12.5 stored', async () => {
    pipeline.sandbox.seedProducts(MAIN_SELLER, [
      { sku: 'DEC-1', name: 'Decimal one', price: 12.5 },
      { sku: 'DEC-2', name: 'Decimal two', price: 3 },
      { sku: 'DEC-3', name: 'Decimal three', price: 0.1 },
    ]);
    const source = await pipeline.csv('decimals.csv', [
      { sku: 'DEC-1', name: 'Decimal one', price: '12.50' },
      { sku: 'DEC-2', name: 'Decimal two', price: '3.00' },
      { sku: 'DEC-3', name: 'Decimal three', price: '0.10' },
    ]);

    const result = await pipeline.cli(['run', source]);

    expect(result.code).toBe(0);
    expect(result.stdout).toContain('rows      3: 0 created, 0 updated, 3 unchanged');
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
  });
});

describe('a product changed by hand on the marketplace', () => {
  const pipeline = usePipeline();

  it('is put back to the source values by the next run, and only it', async () => {
    const rows = catalogRows(30);
    const source = await pipeline.csv('catalog.csv', rows);
    await pipeline.cli(['run', source]);
    const id = idsBySku(pipeline.products()).get('SKU-00007')!;
    pipeline.sandbox.editProduct(MAIN_SELLER, id, { name: 'Edited by hand', price: 1 });
    pipeline.sandbox.resetStats();

    const result = await pipeline.cli(['run', source]);

    expect(result.code).toBe(0);
    expect(result.stdout).toContain('rows      30: 0 created, 1 updated, 29 unchanged');
    const puts = pipeline.sandbox.requests().filter((request) => request.method === 'PUT');
    expect(puts).toEqual([
      expect.objectContaining({
        query: { id },
        body: { name: rows[6]!.name, price: priceNumber(rows[6]!.price) },
      }),
    ]);
    expect(bySku(pipeline.products()).get('SKU-00007')).toEqual({
      sku: 'SKU-00007',
      name: rows[6]!.name,
      price: priceNumber(rows[6]!.price),
    });
  });
});
