import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../src/project-root.js';
import { bySku, MAIN_SELLER, requestCounts, runReported, usePipeline } from '../support/pipeline.js';

/** A generic file's own `status` column: the published state of its rows, as the API reads it. */
const ROWS = [
  { sku: 'A-1', name: 'Alpha', price: '10.00', status: 'active' },
  { sku: 'B-2', name: 'Beta', price: '20.00', status: 'draft' },
  { sku: 'C-3', name: 'Gamma', price: '30.00', status: 'Archived' },
];

describe('a generic row whose status is not active is not sold', () => {
  const pipeline = usePipeline();

  it.each([
    ['with --fields without status', ['--fields', 'sku,name,price']],
    ['without --fields', []],
  ])('--only-published leaves it out, %s', async (_, fields) => {
    const { result, lines, writes } = await runReported(pipeline, ROWS, ['--only-published', ...fields]);

    expect(result.code).toBe(0);
    expect(writes.creates).toBe(1);
    expect(lines.map((line) => [line.key, line.action, line.error])).toEqual([
      ['A-1', 'create', ''],
      ['B-2', 'skipped', 'not sold in the source (status draft): left out (--only-published)'],
      ['C-3', 'skipped', 'not sold in the source (status Archived): left out (--only-published)'],
    ]);
    expect([...bySku(pipeline.products()).keys()]).toEqual(['A-1']);
  });

  it('--fields without status never creates it live; a product it has is updated, its status left alone', async () => {
    pipeline.sandbox.seedProducts(MAIN_SELLER, [{ sku: 'B-2', name: 'Beta', price: 25, status: 'draft' }]);

    const { result, lines, writes } = await runReported(pipeline, ROWS, ['--fields', 'sku,name,price']);

    expect(result.code).toBe(0);
    expect(writes).toMatchObject({ creates: 1, updates: 1 });
    expect(lines.map((line) => [line.key, line.action, line.error || line.note])).toEqual([
      ['A-1', 'create', ''],
      [
        'B-2',
        'update',
        'not sold in the source (status draft): status not sent (--fields), left as the marketplace has it',
      ],
      [
        'C-3',
        'skipped',
        'not sold in the source (status Archived) and status is not among the fields sent (--fields): not created, so that it does not go live',
      ],
    ]);
    expect(bySku(pipeline.products()).get('B-2')).toMatchObject({ price: 20, status: 'draft' });
    expect(bySku(pipeline.products()).has('C-3')).toBe(false);
  });

  it('without --fields, it is sent with its own status, as before', async () => {
    const { result, writes } = await runReported(pipeline, ROWS);

    expect(result.code).toBe(0);
    expect(writes.creates).toBe(3);
    expect(bySku(pipeline.products()).get('C-3')).toMatchObject({ status: 'Archived' });
  });

  it('--only-published with a source that cannot say a row is not sold: one line, exit 2, no request', async () => {
    const withoutStatus = ROWS.map(({ status: _status, ...row }) => row);
    const generic = await runReported(pipeline, withoutStatus, ['--only-published']);
    expect(generic.result.code).toBe(2);
    expect(generic.result.stderr).toBe(
      'catalog-sync: --only-published: no row of this source can say it is not sold (the generic preset reads that from a status field, and this source gives none): drop it\n',
    );
    for (const sample of ['etsy.csv', 'ebay.csv', 'amazon.tsv']) {
      const source = join(projectRoot(), 'fixtures', 'samples', sample);
      const refused = await pipeline.cli(['run', source, '--only-published']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(
        /^catalog-sync: --only-published: no row of this source can say it is not sold \(the (etsy|ebay|amazon) preset reads no published state, and this source gives no status field\): drop it\n$/,
      );
    }
    expect(requestCounts(pipeline.sandbox.stats()).total).toBe(0);
    expect(pipeline.products()).toEqual([]);
  });
});
