import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RedisKeys } from '../../../src/runs/keys.js';
import { sellerRef } from '../../../src/sellers/seller-ref.js';
import type { CatalogRow } from '../support/catalog.js';
import { MAIN_KEY, requestCounts, usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';

const S1: CatalogRow[] = [
  { sku: 'A1', name: 'Alpha', price: '10.00', quantity: '5', description: 'first' },
  { sku: 'B2', name: 'Beta', price: '20.00', quantity: '6', description: 'second' },
  { sku: 'C3', name: 'Gamma', price: '30.00', quantity: '7', description: 'third' },
];

/** The seller's products as (sku, name, price), by id. */
function catalog(products: Array<Record<string, unknown>>) {
  return products.map(({ id, sku, name, price }) => ({ id, sku, name, price }));
}

describe('a change of match field (--match-by, or a mapping file’s matchBy)', () => {
  const pipeline = usePipeline();

  /** `run` with `args`; resolves to its stdout and the requests it sent, by kind. */
  async function run(name: string, rows: CatalogRow[], ...args: string[]) {
    const before = requestCounts(pipeline.sandbox.stats());
    const result = await pipeline.cli(['run', await pipeline.csv(name, rows), ...args]);
    expect(result.code, result.stderr).toBe(0);
    const after = requestCounts(pipeline.sandbox.stats());
    return {
      stdout: result.stdout,
      lists: after.lists - before.lists,
      creates: after.creates - before.creates,
      updates: after.updates - before.updates,
    };
  }

  it('--incremental reads the products when the record was made by another field, and says why', async () => {
    await run('s1a.csv', S1, '--incremental');

    const byName = await run('s1a.csv', S1, '--incremental', '--match-by', 'name');

    expect(byName).toMatchObject({ creates: 0, updates: 0 });
    expect(byName.lists).toBeGreaterThan(0);
    expect(byName.stdout).toContain(
      '  incremental products read: the last full read matched by sku, this run by name',
    );
    expect(pipeline.products()).toHaveLength(3);

    // Its own full read is the record of `name` now: the next run by name reads nothing.
    const again = await run('s1a.csv', S1, '--incremental', '--match-by', 'name');
    expect(again).toMatchObject({ lists: 0, creates: 0, updates: 0 });
    expect(again.stdout).toContain("  incremental no product read: relied on this tool's record");
    const back = await run('s1a.csv', S1, '--incremental');
    expect(back).toMatchObject({ creates: 0, updates: 0 });
    expect(back.lists).toBeGreaterThan(0);
    expect(back.stdout).toContain('the last full read matched by name, this run by sku');
    expect(pipeline.products()).toHaveLength(3);
  });

  it('a mapping file’s matchBy is the same change as --match-by', async () => {
    await run('s1a.csv', S1, '--incremental');
    const mapping = join(pipeline.dir, 'by-name.yml');
    const fields = ['sku', 'name', 'price', 'quantity', 'description'].map((f) => `  ${f}: ${f}\n`);
    await writeFile(mapping, `matchBy: name\nfields:\n${fields.join('')}`, 'utf8');

    const byName = await run('s1a.csv', S1, '--incremental', '--mapping', mapping);

    expect(byName).toMatchObject({ creates: 0, updates: 0 });
    expect(byName.stdout).toContain('this run by name');
    // --match-by name and matchBy: name are one field: the record made by one serves the other.
    const flag = await run('s1a.csv', S1, '--incremental', '--match-by', 'name');
    expect(flag).toMatchObject({ lists: 0, creates: 0, updates: 0 });
    expect(pipeline.products()).toHaveLength(3);
  });

  it('--incremental by name updates the product named so, not the one whose SKU is that name', async () => {
    const m3a = [
      { sku: 'K1', name: 'Widget', price: '10' },
      { sku: 'Widget', name: 'Gadget', price: '20' },
    ];
    await run('m3a.csv', m3a, '--incremental');
    const [k1, widget] = catalog(pipeline.products());
    pipeline.sandbox.resetStats();

    const m3b = [{ ...m3a[0]!, price: '11' }, m3a[1]!];
    const byName = await run('m3b.csv', m3b, '--incremental', '--match-by', 'name');

    expect(byName).toMatchObject({ creates: 0, updates: 1 });
    expect(pipeline.sandbox.requests().filter((request) => request.method === 'PUT')).toEqual([
      expect.objectContaining({ query: { id: String(k1!.id) }, body: { price: 11 } }),
    ]);
    expect(catalog(pipeline.products())).toEqual([
      { ...k1, price: 11 },
      { ...widget, price: 20 },
    ]);
  });

  it('a plain run by name creates the product named as another product’s SKU, and leaves that one', async () => {
    await run('lamp.csv', [{ sku: 'Lamp', name: 'Desk lamp', price: '10' }]);

    const byName = await run('n1.csv', [{ sku: 'N1', name: 'Lamp', price: '99' }], '--match-by', 'name');
    // And back: a run by SKU does not take the product named `Lamp` for SKU `Lamp`.
    const bySku = await run('lamp.csv', [{ sku: 'Lamp', name: 'Desk lamp', price: '12' }]);

    expect(byName).toMatchObject({ creates: 1, updates: 0 });
    expect(bySku).toMatchObject({ creates: 0, updates: 1 });
    expect(catalog(pipeline.products())).toEqual([
      { id: 1, sku: 'Lamp', name: 'Desk lamp', price: 12 },
      { id: 2, sku: 'N1', name: 'Lamp', price: 99 },
    ]);
  });

  it('a run by another field that wrote since the full read makes --incremental read again', async () => {
    await run('s1a.csv', S1, '--incremental');
    const added = { sku: 'D4', name: 'Delta', price: '40.00', quantity: '1', description: 'fourth' };
    await run('d4.csv', [added], '--match-by', 'name');

    // D4 is in no record of SKUs: only a read of the products finds it.
    const next = await run('s1b.csv', [...S1, added], '--incremental');

    expect(next).toMatchObject({ creates: 0, updates: 0 });
    expect(next.lists).toBeGreaterThan(0);
    expect(next.stdout).toContain('a run matching by name wrote since the last full read');
    expect(pipeline.products()).toHaveLength(4);
  });

  it('a record from before match fields were kept apart is not relied on: it does not say its field', async () => {
    await run('s1a.csv', S1, '--incremental');
    const keys = new RedisKeys(pipeline.prefix);
    const ref = sellerRef(pipeline.sandbox.baseUrl, MAIN_KEY);
    await withRedis((redis) => redis.set(keys.fullRead(ref), String(Date.now())));

    const byName = await run('s1a.csv', S1, '--incremental', '--match-by', 'name');

    expect(byName).toMatchObject({ creates: 0, updates: 0 });
    expect(byName.lists).toBeGreaterThan(0);
    expect(byName.stdout).toContain('does not say its match field (an earlier version made it)');
    expect(pipeline.products()).toHaveLength(3);
  });

  it('an id map from before match fields were kept apart is the field the seller’s runs matched by', async () => {
    await run('lamp.csv', [{ sku: 'Lamp', name: 'Desk lamp', price: '10' }]);
    const keys = new RedisKeys(pipeline.prefix);
    const ref = sellerRef(pipeline.sandbox.baseUrl, MAIN_KEY);
    await withRedis((redis) => redis.del(keys.idMapHome(ref)));

    // Its first run since matches by name: the map stays the SKUs' (the earlier run's field).
    const byName = await run('n1.csv', [{ sku: 'N1', name: 'Lamp', price: '99' }], '--match-by', 'name');

    expect(byName).toMatchObject({ creates: 1, updates: 0 });
    expect(catalog(pipeline.products())).toEqual([
      { id: 1, sku: 'Lamp', name: 'Desk lamp', price: 10 },
      { id: 2, sku: 'N1', name: 'Lamp', price: 99 },
    ]);
  });
});

describe('an id map from before match fields were kept apart, by a field the API hides', () => {
  const pipeline = usePipeline({ hideFields: ['name'] });
  const keys = () => new RedisKeys(pipeline.prefix);
  const ref = () => sellerRef(pipeline.sandbox.baseUrl, MAIN_KEY);

  /** What an earlier version left: its id map's keys in the first space, and no home. */
  const asBeforeSpaces = () =>
    withRedis((redis) => redis.del(keys().idMapHome(ref()), keys().idMapFields(ref())));

  it('is taken for the field the seller’s runs matched by: by name, names the API hides are found again', async () => {
    const source = await pipeline.csv('s1a.csv', S1);
    expect((await pipeline.cli(['run', source, '--match-by', 'name'])).code).toBe(0);
    await asBeforeSpaces();
    pipeline.sandbox.resetStats();

    const again = await pipeline.cli(['run', source, '--match-by', 'name']);

    expect(again.stdout).toContain('rows      3: 0 created, 0 updated, 3 unchanged');
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
    expect(pipeline.products()).toHaveLength(3);
  });
});
