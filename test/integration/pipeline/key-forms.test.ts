import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RedisKeys } from '../../../src/runs/keys.js';
import { sellerRef } from '../../../src/sellers/seller-ref.js';
import { IdMap } from '../../../src/sync/id-map.js';
import type { CatalogRow } from '../support/catalog.js';
import { bySku, MAIN_KEY, requestCounts, usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';

// The same SKUs as two exports may write them: `È` as one character (NFC), or as `E` and a
// combining grave accent (NFD). The seller sees one SKU; matched byte for byte, the second night
// created every such product again.
const SKUS = ['CRÈME-1', 'Ñandú-2', 'café-3'];
const composed = (sku: string) => sku.normalize('NFC');
const decomposed = (sku: string) => sku.normalize('NFD');

function rows(form: (sku: string) => string): CatalogRow[] {
  return [
    ...SKUS.map((sku, i) => ({ sku: form(sku), name: `Product ${i + 1}`, price: `${i + 5}.00` })),
    { sku: 'PLAIN-4', name: 'Plain', price: '1.00' },
  ];
}

describe('a SKU written in another Unicode form the next night', () => {
  const pipeline = usePipeline();

  /** The products the seller's id map holds: one entry each, whichever form found them. */
  const recorded = () =>
    withRedis((redis) =>
      new IdMap(redis, new RedisKeys(pipeline.prefix), sellerRef(pipeline.sandbox.baseUrl, MAIN_KEY)).size(),
    );

  /** Runs `source` (plus `args`), expecting `code`; the requests it sent, by kind. */
  async function sync(name: string, source: CatalogRow[], args: string[] = [], code = 0) {
    const before = requestCounts(pipeline.sandbox.stats());
    const result = await pipeline.cli(['run', await pipeline.csv(name, source), ...args]);
    expect(result.code, result.stderr).toBe(code);
    const after = requestCounts(pipeline.sandbox.stats());
    return {
      stdout: result.stdout,
      lists: after.lists - before.lists,
      creates: after.creates - before.creates,
      updates: after.updates - before.updates,
    };
  }

  it.each([
    ['composed, then decomposed', composed, decomposed],
    ['decomposed, then composed', decomposed, composed],
  ])(
    'matches the product it created (%s): one PUT of the SKU as the source now writes it, no second product',
    async (_, first, then) => {
      expect((await sync('first.csv', rows(first))).creates).toBe(4);

      const second = await sync('second.csv', rows(then));

      expect(second.creates).toBe(0);
      expect(second.updates).toBe(3);
      expect(second.stdout).toContain('rows      4: 0 created, 3 updated, 1 unchanged, 0 invalid, 0 failed');
      const stored = bySku(pipeline.products());
      expect(stored.size).toBe(4);
      for (const sku of SKUS) expect(stored.get(then(sku))).toMatchObject({ sku: then(sku) });
      // Once the marketplace holds the source's form, the next night is unchanged.
      expect(await sync('third.csv', rows(then))).toMatchObject({ creates: 0, updates: 0 });
      expect(await recorded()).toBe(4);
    },
  );

  it('matches under --incremental too, from the record alone', async () => {
    const first = await sync('first.csv', rows(composed), ['--incremental']);
    expect(first.creates).toBe(4);

    const second = await sync('second.csv', rows(decomposed), ['--incremental']);

    // No list read: the id map, which holds the composed keys, found each product.
    expect(second.lists).toBe(0);
    expect(second.creates).toBe(0);
    expect(second.updates).toBe(3);
    expect(bySku(pipeline.products()).size).toBe(4);
    expect(await recorded()).toBe(4);
  });

  it('takes two rows of one source that differ only so for one product: the second is a duplicate', async () => {
    const source = [...rows(composed), { sku: decomposed('CRÈME-1'), name: 'Again', price: '9.00' }];

    // Exit 1: a row is invalid (README, Exit codes).
    const result = await sync('both.csv', source, ['--report', join(pipeline.dir, 'report.csv')], 1);

    expect(result.creates).toBe(4);
    expect(result.stdout).toContain('rows      5: 4 created, 0 updated, 0 unchanged, 1 invalid, 0 failed');
    expect(await pipeline.readText('report.csv')).toContain(
      `duplicate sku ""${decomposed('CRÈME-1')}"": first seen in row 1`,
    );
    expect(bySku(pipeline.products()).size).toBe(4);
  });
});
