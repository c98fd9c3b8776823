import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runIdOf } from '../support/cli.js';
import { bySku, MAIN_KEY, requestCounts, usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';

const EAN_FILE = 'SKU,Name,Price,EAN\nV1,a,1.00,4006381333931\nV2,b,1.00,4006381333948\n';

// docs/sources.md advises `--match-by ean` to match by EAN. The generic preset reads an EAN column
// as barcode, so a first run made {sku: V1, barcode: …}; `--match-by ean` then read the column as
// `ean`, found no product by it and created the whole catalog again (same SKUs, exit 0).
describe('--match-by naming a column the generic preset reads as a product field', () => {
  const pipeline = usePipeline();

  async function file(name: string, text: string) {
    const path = join(pipeline.dir, name);
    await writeFile(path, text);
    return path;
  }

  it.each([['ean'], ['EAN']])(
    '--match-by %s on an EAN column read as barcode matches by barcode, says so, creates nothing',
    async (asked) => {
      const path = await file('v.csv', EAN_FILE);
      const first = await pipeline.cli(['run', path]);
      expect(first.code, first.stdout + first.stderr).toBe(0);
      expect(first.stdout).toContain('EAN as barcode');
      const made = pipeline.products();
      pipeline.sandbox.resetStats();

      const again = await pipeline.cli(['run', path, '--match-by', asked]);

      expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
      expect(pipeline.products()).toEqual(made);
      expect(again.code, again.stdout + again.stderr).toBe(0);
      expect(again.stdout).toContain(
        `--match-by ${asked}: this source's EAN column is read as barcode: matched by barcode`,
      );
    },
  );

  it('--match-by SKU on a SKU column is sku: the products keep their sku, no text field SKU', async () => {
    const path = await file('u.csv', 'SKU,Name,Price,Stock\nU1,a,1.00,3\nU2,b,2.00,4\n');
    const first = await pipeline.cli(['run', path]);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const made = pipeline.products();
    pipeline.sandbox.resetStats();

    const again = await pipeline.cli(['run', path, '--match-by', 'SKU']);

    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
    expect(pipeline.products()).toEqual(made);
    for (const product of pipeline.products()) expect(product).not.toHaveProperty('SKU');
  });

  it('products an older run keyed by a text field ean are not made again: the run is held', async () => {
    // As `--match-by ean` read a lowercase `ean` column before: the products carry `ean`, no barcode.
    const [id] = pipeline.sandbox.seedProducts('seller-main', [
      { sku: 'OLD-1', name: 'Mug', price: 4, ean: '4006381333931' },
    ]);
    const path = await file('ean.csv', 'EAN,Title,Price,Stock\n4006381333931,Mug,5,3\n');

    const held = await pipeline.cli(['run', path, '--match-by', 'ean']);

    expect(held.code, held.stdout + held.stderr).toBe(5);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
    expect(held.stdout).toContain(
      `  held      row 1 (barcode 4006381333931) would create a product, but product ${id} has its ean ` +
        '4006381333931: ean is a text field of that product, as --match-by ean made products before this ' +
        'version read the EAN column as barcode; to match by it, run with --mapping FILE, FILE holding ' +
        '{preset: generic, fields: {ean: {column: EAN, custom: true}}, matchBy: ean} (approve would create ' +
        'that product a second time): nothing was sent',
    );
    expect(pipeline.products()).toHaveLength(1);
  });

  // The upgrade of a nightly cron line `run --match-by ean ean.csv`: yesterday's version read the
  // EAN column as a text field ean and made the products so; today's reads it as barcode, finds
  // none by it and is held every night. `approve` would make the catalog a second time; the line
  // gives the mapping file that matches by ean as before.
  it('a cron line of an earlier --match-by ean is held with the mapping file that matches, which does', async () => {
    const made = [
      { ean: '4006381333931', name: 'Pen Blue', price: 1.5, quantity: 10 },
      { ean: '4006381333948', name: 'Pen Red', price: 1.6, quantity: 12 },
    ];
    const ids: string[] = [];
    for (const product of made) {
      const response = await fetch(`${pipeline.sandbox.baseUrl}/products`, {
        method: 'POST',
        headers: { authorization: `Bearer ${MAIN_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(product),
      });
      expect(response.status).toBe(201);
      ids.push(new URL(response.headers.get('location') ?? '').searchParams.get('id') ?? '');
    }
    pipeline.sandbox.resetStats();
    const path = await file(
      'ean.csv',
      'EAN,name,price,stock\n4006381333931,Pen Blue,1.50,10\n4006381333948,Pen Red,1.60,12\n',
    );

    const held = await pipeline.cli(['run', path, '--match-by', 'ean']);

    expect(held.code, held.stdout + held.stderr).toBe(5);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
    const mapping = '{preset: generic, fields: {ean: {column: EAN, custom: true}}, matchBy: ean}';
    expect(held.stdout).toContain(
      `  held      rows 1 (barcode 4006381333931; product ${ids[0]} has its ean 4006381333931) and 2 (barcode ` +
        `4006381333948; product ${ids[1]} has its ean 4006381333948) would create products: ean is a text ` +
        'field of those products, as --match-by ean made products before this version read the EAN column as ' +
        `barcode; to match by it, run with --mapping FILE, FILE holding ${mapping} (approve would create a ` +
        'second product of each): nothing was sent',
    );
    expect(held.stdout).not.toContain('approve creates');
    // Nor is approving offered as the way on, in the summary or in `status`.
    const notOffered =
      '  approve   not this one: it would create a second product of each held row (the held line says what to run instead)';
    expect(held.stdout).toContain(notOffered);
    expect(held.stdout).not.toMatch(/approve\s+catalog-sync approve/);
    const runId = /run (\S+?):/.exec(held.stdout)?.[1] as string;
    const status = await pipeline.cli(['status', runId]);
    expect(status.stdout).toContain(notOffered);

    // The cron line with the mapping file the line gives added.
    const given = /FILE holding (\{.*\}) \(approve/.exec(held.stdout)?.[1];
    expect(given).toBe(mapping);
    const map = await file('ean.yml', `${given}\n`);
    pipeline.sandbox.resetStats();
    const matched = await pipeline.cli(['run', path, '--match-by', 'ean', '--mapping', map]);

    expect(matched.code, matched.stdout + matched.stderr).toBe(0);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0 });
    expect(pipeline.products()).toHaveLength(2);
    expect(pipeline.products().map((product) => product.ean)).toEqual(['4006381333931', '4006381333948']);
    // The file's matchBy is enough: a cron line that drops --match-by matches the same.
    const alone = await pipeline.cli(['run', path, '--mapping', map]);
    expect(alone.code, alone.stdout + alone.stderr).toBe(0);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0 });
    expect(pipeline.products()).toHaveLength(2);
  });
});

// The safety net: a run matched by another field than sku whose create would give a listed
// product's SKU to a second product is held (exit 5, nothing sent); `approve` sends it.
describe('a run matched by another field creating a product whose SKU is listed', () => {
  const pipeline = usePipeline();

  it('is held naming the row and the product; approve creates it anyway', async () => {
    const [id] = pipeline.sandbox.seedProducts('seller-main', [
      { sku: 'V1', name: 'a', price: 1, barcode: '1111111111111' },
    ]);
    const path = join(pipeline.dir, 'v.csv');
    await writeFile(path, EAN_FILE);

    const held = await pipeline.cli(['run', path, '--match-by', 'barcode']);

    expect(held.code, held.stdout + held.stderr).toBe(5);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
    expect(held.stdout).toContain(
      `  held      row 1 (barcode 4006381333931) would create a product, but product ${id} has its sku V1: ` +
        'creating it may duplicate that product (approve creates it anyway): nothing was sent',
    );
    expect(pipeline.products()).toHaveLength(1);

    const runId = runIdOf(held.stdout);
    const listedKeys = () => withRedis((redis) => redis.keys(`${pipeline.prefix}*${runId}*listed-keys`));
    expect(await listedKeys()).toHaveLength(1);
    const approved = await pipeline.cli(['approve', runId]);
    expect(approved.code, approved.stdout + approved.stderr).toBe(0);
    // What the check kept of the list read goes with the run's end.
    expect(await listedKeys()).toEqual([]);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 2 });
    expect([...bySku(pipeline.products()).keys()]).toEqual(['V1', 'V2']);
    expect(pipeline.products()).toHaveLength(3);
  });

  it('a dry run says the real run would be held', async () => {
    const [id] = pipeline.sandbox.seedProducts('seller-main', [{ sku: 'V2', name: 'b', price: 1 }]);
    const path = join(pipeline.dir, 'v.csv');
    await writeFile(path, EAN_FILE);

    const dry = await pipeline.cli(['run', path, '--match-by', 'barcode', '--dry-run']);

    expect(dry.code, dry.stdout + dry.stderr).toBe(0);
    expect(dry.stdout).toContain(
      `  guard     a run without --dry-run would be held (exit 5): row 2 (barcode 4006381333948) would ` +
        `create a product, but product ${id} has its sku V2: creating it may duplicate that product`,
    );
  });

  it('is not held for creates whose SKUs no listed product has', async () => {
    pipeline.sandbox.seedProducts('seller-main', [{ sku: 'X9', name: 'x', price: 1 }]);
    const path = join(pipeline.dir, 'v.csv');
    await writeFile(path, EAN_FILE);

    const result = await pipeline.cli(['run', path, '--match-by', 'barcode']);

    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 2 });
  });
});
