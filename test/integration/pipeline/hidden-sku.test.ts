import { describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { bySku, requestCounts, usePipeline } from '../support/pipeline.js';

describe('when the API does not echo the sku back', () => {
  const pipeline = usePipeline({ hideFields: ['sku'] });

  it('learns the mapping from its creates, so a second run is all unchanged with no duplicate', async () => {
    const source = await pipeline.csv('catalog.csv', catalogRows(120));
    expect((await pipeline.cli(['run', source])).code).toBe(0);
    pipeline.sandbox.resetStats();

    const second = await pipeline.cli(['run', source]);

    expect(second.code).toBe(0);
    expect(second.stdout).toContain(
      'rows      120: 0 created, 0 updated, 120 unchanged, 0 invalid, 0 failed',
    );
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
    expect(pipeline.products()).toHaveLength(120);
    expect(bySku(pipeline.products()).size).toBe(120);
  });

  it('updates a changed row in place instead of creating it again', async () => {
    const rows = catalogRows(20);
    await pipeline.cli(['run', await pipeline.csv('v1.csv', rows)]);
    rows[4]!.price = '42.00';
    pipeline.sandbox.resetStats();

    const second = await pipeline.cli(['run', await pipeline.csv('v2.csv', rows)]);

    expect(second.stdout).toContain('rows      20: 0 created, 1 updated, 19 unchanged');
    expect(pipeline.sandbox.requests().filter((request) => request.method !== 'GET')).toEqual([
      expect.objectContaining({ method: 'PUT', body: { price: 42 } }),
    ]);
    expect(pipeline.products()).toHaveLength(20);
    expect(bySku(pipeline.products()).get('SKU-00005')?.price).toBe(42);
  });
});
