import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { RedisKeys } from '../../../src/runs/keys.js';
import { sellerRef } from '../../../src/sellers/seller-ref.js';
import { IdMap } from '../../../src/sync/id-map.js';
import { REAL_FIXTURES_DIR } from '../../support/real-fixtures-dir.js';
import { parseCsv } from '../support/catalog.js';
import { MAIN_KEY, MAIN_SELLER, type Pipeline, requestCounts, usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';

/**
 * A real export without SKUs, run once; then the seller gives one product a SKU (the cleanup after
 * a first migration) and runs it again: the product made the first time is given the SKU, never
 * made a second time (docs/sources.md, "A SKU given later").
 */
const SHOPIFY = join(REAL_FIXTURES_DIR, 'shopify-export/products_export_1.csv');
const WOO = join(REAL_FIXTURES_DIR, 'woocommerce/cys-dummy-products.csv');

/**
 * The export rewritten in `dir`: `change` gives each data row (by column name) its new cells, or
 * null to leave it out; exactly one row is changed.
 */
async function rewritten(
  dir: string,
  file: string,
  name: string,
  change: (row: Record<string, string>) => Record<string, string> | null | undefined,
): Promise<string> {
  const [header = [], ...rows] = parse(await readFile(file, 'utf8'), {
    relax_column_count: true,
  }) as string[][];
  let edited = 0;
  const out = rows.flatMap((cells) => {
    const changed = change(Object.fromEntries(header.map((h, i) => [h, cells[i] ?? ''])));
    if (changed === undefined) return [cells];
    edited++;
    return changed === null ? [] : [header.map((h) => changed[h] ?? '')];
  });
  expect(edited).toBe(1);
  const path = join(dir, name);
  await writeFile(path, stringify([header, ...out]));
  return path;
}

/** The export with `column` set to `value` in the one row where `match` holds. */
function withCell(
  dir: string,
  file: string,
  name: string,
  match: (row: Record<string, string>) => boolean,
  column: string,
  value: string,
): Promise<string> {
  return rewritten(dir, file, name, (row) => (match(row) ? { ...row, [column]: value } : undefined));
}

const named = (name: string) => (product: Record<string, unknown>) => product.name === name;

/** What the seller's id map holds under each key, and the key it holds for each product. */
function idMapOf(pipeline: Pipeline, keys: string[], ids: string[]) {
  return withRedis(async (redis) => {
    const map = new IdMap(
      redis,
      new RedisKeys(pipeline.prefix),
      sellerRef(pipeline.sandbox.baseUrl, MAIN_KEY),
    );
    const known = await map.getMany(keys);
    return {
      byKey: Object.fromEntries(keys.map((key) => [key, known.get(key)?.id ?? null])),
      byId: Object.fromEntries(await map.keysOfIds(ids)),
      size: await map.size(),
    };
  });
}

describe('a product given a SKU after its first import', () => {
  const pipeline = usePipeline();

  async function run(source: string, report: string, ...args: string[]) {
    const result = await pipeline.cli(['run', source, '--report', join(pipeline.dir, report), ...args]);
    return { result, lines: parseCsv(await pipeline.readText(report)) };
  }

  it('Shopify: the variant given a Variant SKU is updated with it, not created again', async () => {
    expect((await run(SHOPIFY, 'first.csv')).result.code).toBe(0);
    const [lamp] = pipeline.products().filter(named('Floor Lamp'));
    expect(lamp?.sku).toBeUndefined();
    const before = pipeline.products().length;
    const edited = await withCell(
      pipeline.dir,
      SHOPIFY,
      'sku.csv',
      (row) => row.Handle === 'floor-lamp' && row['Variant Price'] !== '',
      'Variant SKU',
      'LAMP-001',
    );
    const planned = await run(edited, 'dry.csv', '--dry-run');
    expect(planned.lines.find((l) => l.key === 'LAMP-001')).toMatchObject({
      action: 'update',
      status: 'planned',
      product_id: String(lamp?.id),
      note: expect.stringContaining('matched by its former key shopify:floor-lamp'),
    });
    pipeline.sandbox.resetStats();

    const { result, lines } = await run(edited, 'second.csv');

    expect(result.code).toBe(0);
    const line = lines.find((l) => l.key === 'LAMP-001');
    expect(line).toMatchObject({ action: 'update', status: 'ok', product_id: String(lamp?.id) });
    expect(line?.note).toContain('matched by its former key shopify:floor-lamp: sku set');
    const lamps = pipeline.products().filter(named('Floor Lamp'));
    expect(lamps).toEqual([expect.objectContaining({ id: lamp?.id, sku: 'LAMP-001' })]);
    expect(pipeline.products()).toHaveLength(before);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 1 });
    expect(pipeline.sandbox.requests().find((r) => r.method === 'PUT')?.body).toEqual({ sku: 'LAMP-001' });

    // The id map knows it by its SKU now: the next run writes nothing and says nothing of a former key.
    pipeline.sandbox.resetStats();
    const third = await run(edited, 'third.csv');
    expect(third.result.code).toBe(0);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
    expect(third.lines.find((l) => l.key === 'LAMP-001')).toMatchObject({ action: 'unchanged' });
    expect(third.lines.find((l) => l.key === 'LAMP-001')?.note ?? '').not.toContain('former key');
  });

  it('WooCommerce, with --missing: the product of ID 69 gets SKU CHAIR-01; nothing is deactivated', async () => {
    const missing = ['--missing', 'quantity=0'];
    expect((await run(WOO, 'first.csv', ...missing)).result.code).toBe(0);
    const [chair] = pipeline.products().filter(named('Leather-Clad Leisure Chair'));
    expect(chair).toBeDefined();
    const before = pipeline.products();
    const edited = await withCell(pipeline.dir, WOO, 'sku.csv', (row) => row.ID === '69', 'SKU', 'CHAIR-01');

    const { result, lines } = await run(edited, 'second.csv', ...missing);

    expect(result.code).toBe(0);
    expect(lines.find((l) => l.key === 'CHAIR-01')).toMatchObject({
      action: 'update',
      status: 'ok',
      product_id: String(chair?.id),
      note: expect.stringContaining('matched by its former key woocommerce:id:69: sku set'),
    });
    expect(lines.filter((l) => l.action === 'deactivate' || l.action === 'missing')).toEqual([]);
    expect(pipeline.products().filter(named('Leather-Clad Leisure Chair'))).toEqual([
      { ...chair, sku: 'CHAIR-01', updated_at: expect.anything() },
    ]);
    expect(pipeline.products()).toHaveLength(before.length);
    // The id map knows the product by its SKU; its derived key leads nowhere, and nothing was added.
    const id = String(chair?.id);
    expect(await idMapOf(pipeline, ['CHAIR-01', 'woocommerce:id:69'], [id])).toEqual({
      byKey: { 'CHAIR-01': id, 'woocommerce:id:69': null },
      byId: { [id]: 'CHAIR-01' },
      size: before.length,
    });
  });

  it('WooCommerce: a product --missing deactivated under its derived key comes back with its SKU, reactivated', async () => {
    const missing = ['--missing', 'status=hidden'];
    expect((await run(WOO, 'first.csv', ...missing)).result.code).toBe(0);
    const [chair] = pipeline.products().filter(named('Leather-Clad Leisure Chair'));
    const gone = await rewritten(pipeline.dir, WOO, 'gone.csv', (row) =>
      row.ID === '69' ? null : undefined,
    );
    const second = await run(gone, 'second.csv', ...missing);
    expect(second.lines.filter((l) => l.action === 'deactivate')).toMatchObject([
      { product_id: String(chair?.id) },
    ]);
    expect(pipeline.products().find((p) => p.id === chair?.id)?.status).toBe('hidden');
    const back = await withCell(pipeline.dir, WOO, 'sku.csv', (row) => row.ID === '69', 'SKU', 'CHAIR-01');

    const { result, lines } = await run(back, 'third.csv', ...missing);

    expect(result.code).toBe(0);
    const line = lines.find((l) => l.key === 'CHAIR-01');
    expect(line).toMatchObject({ action: 'update', status: 'ok', product_id: String(chair?.id) });
    expect(line?.note).toContain('reactivated');
    expect(line?.note).toContain('matched by its former key woocommerce:id:69: sku set');
    expect(pipeline.products().filter(named('Leather-Clad Leisure Chair'))).toEqual([
      expect.objectContaining({ id: chair?.id, sku: 'CHAIR-01', status: 'active' }),
    ]);
    expect(lines.filter((l) => l.action === 'deactivate' || l.action === 'missing')).toEqual([]);
  });

  it('WooCommerce --incremental with no list read: the same product is given the SKU', async () => {
    const incremental = ['--incremental'];
    expect((await run(WOO, 'first.csv', ...incremental)).result.code).toBe(0);
    expect((await run(WOO, 'again.csv', ...incremental)).result.code).toBe(0);
    const [chair] = pipeline.products().filter(named('Leather-Clad Leisure Chair'));
    const edited = await withCell(pipeline.dir, WOO, 'sku.csv', (row) => row.ID === '69', 'SKU', 'CHAIR-01');
    pipeline.sandbox.resetStats();

    const { result, lines } = await run(edited, 'second.csv', ...incremental);

    expect(result.code).toBe(0);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ lists: 0, creates: 0, updates: 1 });
    expect(lines.find((l) => l.key === 'CHAIR-01')).toMatchObject({
      action: 'update',
      product_id: String(chair?.id),
      note: expect.stringContaining('matched by its former key woocommerce:id:69: sku set'),
    });
    expect(pipeline.products().filter(named('Leather-Clad Leisure Chair'))).toEqual([
      expect.objectContaining({ id: chair?.id, sku: 'CHAIR-01' }),
    ]);
  });

  it('a SKU another product has already: the row is refused in one line, neither product written nor deactivated', async () => {
    const missing = ['--missing', 'status=hidden'];
    expect((await run(WOO, 'first.csv', ...missing)).result.code).toBe(0);
    const [chair] = pipeline.products().filter(named('Leather-Clad Leisure Chair'));
    pipeline.sandbox.seedProducts(MAIN_SELLER, [{ sku: 'CHAIR-01', name: 'Another chair', price: 10 }]);
    const [other] = pipeline.products().filter(named('Another chair'));
    const before = pipeline.products();
    const edited = await withCell(pipeline.dir, WOO, 'sku.csv', (row) => row.ID === '69', 'SKU', 'CHAIR-01');
    pipeline.sandbox.resetStats();

    const { result, lines } = await run(edited, 'second.csv', ...missing);

    expect(result.code).toBe(1);
    expect(lines.filter((l) => l.action === 'deactivate' || l.action === 'missing')).toEqual([]);
    const line = lines.find((l) => l.key === 'CHAIR-01');
    expect(line).toMatchObject({ action: 'invalid', status: 'failed' });
    expect(line?.error).toBe(
      `sku CHAIR-01 is product ${other?.id}, and its former key woocommerce:id:69 names product ${chair?.id}: two products are not made one (remove the one not wanted on the marketplace)`,
    );
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
    expect(pipeline.products()).toEqual(before);
  });

  it('a product given another SKU on the marketplace: the row is refused, not renamed nor made again', async () => {
    expect((await run(WOO, 'first.csv')).result.code).toBe(0);
    const [chair] = pipeline.products().filter(named('Leather-Clad Leisure Chair'));
    pipeline.sandbox.editProduct(MAIN_SELLER, String(chair?.id), { sku: 'BY-HAND-7' });
    const before = pipeline.products();
    const edited = await withCell(pipeline.dir, WOO, 'sku.csv', (row) => row.ID === '69', 'SKU', 'CHAIR-01');

    const { result, lines } = await run(edited, 'second.csv');

    expect(result.code).toBe(1);
    expect(lines.find((l) => l.key === 'CHAIR-01')).toMatchObject({
      action: 'invalid',
      error: `its former key woocommerce:id:69 names product ${chair?.id}, whose sku is BY-HAND-7: not changed to CHAIR-01`,
    });
    expect(pipeline.products()).toEqual(before);
  });

  it("the former key's product deleted on the marketplace: the SKU's product is written, the old record dropped", async () => {
    const [other] = pipeline.sandbox.seedProducts(MAIN_SELLER, [
      { sku: 'CHAIR-01', name: 'Another chair', price: 10 },
    ]);
    expect((await run(WOO, 'first.csv')).result.code).toBe(0);
    const [chair] = pipeline.products().filter(named('Leather-Clad Leisure Chair'));
    pipeline.sandbox.deleteProduct(MAIN_SELLER, String(chair?.id));
    const edited = await withCell(pipeline.dir, WOO, 'sku.csv', (row) => row.ID === '69', 'SKU', 'CHAIR-01');
    pipeline.sandbox.resetStats();

    const { result, lines } = await run(edited, 'second.csv');

    expect(result.code).toBe(0);
    expect(lines.find((l) => l.key === 'CHAIR-01')).toMatchObject({ action: 'update', product_id: other });
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 1 });
    expect(pipeline.products().filter(named('Leather-Clad Leisure Chair'))).toEqual([
      expect.objectContaining({ id: Number(other), sku: 'CHAIR-01' }),
    ]);
    const map = await idMapOf(pipeline, ['CHAIR-01', 'woocommerce:id:69'], []);
    expect(map.byKey).toEqual({ 'CHAIR-01': other, 'woocommerce:id:69': null });
  });
});

describe('a product given a SKU after its first import, by an API that does not show sku', () => {
  const pipeline = usePipeline({ hideFields: ['sku'] });

  it('finds it by its former key, gives it the SKU, and finds it by the SKU the next night', async () => {
    const report = (name: string) => join(pipeline.dir, name);
    expect((await pipeline.cli(['run', WOO, '--report', report('first.csv')])).code).toBe(0);
    const [chair] = pipeline.products().filter(named('Leather-Clad Leisure Chair'));
    const count = pipeline.products().length;
    const edited = await withCell(pipeline.dir, WOO, 'sku.csv', (row) => row.ID === '69', 'SKU', 'CHAIR-01');

    expect((await pipeline.cli(['run', edited, '--report', report('second.csv')])).code).toBe(0);
    expect(parseCsv(await pipeline.readText('second.csv')).find((l) => l.key === 'CHAIR-01')).toMatchObject({
      action: 'update',
      product_id: String(chair?.id),
    });
    pipeline.sandbox.resetStats();
    expect((await pipeline.cli(['run', edited, '--report', report('third.csv')])).code).toBe(0);

    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
    expect(parseCsv(await pipeline.readText('third.csv')).find((l) => l.key === 'CHAIR-01')).toMatchObject({
      action: 'unchanged',
      product_id: String(chair?.id),
    });
    expect(pipeline.products()).toHaveLength(count);
    expect(pipeline.products().filter(named('Leather-Clad Leisure Chair'))).toEqual([
      expect.objectContaining({ id: chair?.id, sku: 'CHAIR-01' }),
    ]);
  });
});
