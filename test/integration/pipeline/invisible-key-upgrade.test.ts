import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RedisKeys } from '../../../src/runs/keys.js';
import { sellerRef } from '../../../src/sellers/seller-ref.js';
import { IdMap } from '../../../src/sync/id-map.js';
import { parseCsv } from '../support/catalog.js';
import { bySku, MAIN_KEY, requestCounts, usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';

// Before a key with an invisible character at its edge (`\u200bZW-1`) was refused, it was sent as
// written: the marketplace has the product under that SKU, and the id map records it so. The seller
// removes the character from the cell as the refusal says: the clean row must find that product,
// never create ZW-1 a second time (nor deactivate the old one with --missing).
const OLD_SKU = '\u200bZW-1';
const CLEAN_CSV = 'sku,name,price\nZW-1,Zero one,1.00\nZW-2,Zero two,2.00\n';

describe('upgrading over a product made under a key with an invisible edge character', () => {
  const pipeline = usePipeline();

  async function sync(name: string, text: string, args: string[] = []) {
    const path = join(pipeline.dir, name);
    await writeFile(path, text);
    const report = join(pipeline.dir, `${name}.report.csv`);
    const before = requestCounts(pipeline.sandbox.stats());
    const result = await pipeline.cli(['run', path, '--report', report, ...args]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const after = requestCounts(pipeline.sandbox.stats());
    return {
      lines: parseCsv(await pipeline.readText(`${name}.report.csv`)),
      lists: after.lists - before.lists,
      creates: after.creates - before.creates,
      updates: after.updates - before.updates,
    };
  }

  const idMap = <T>(use: (map: IdMap) => Promise<T>) =>
    withRedis((redis) =>
      use(new IdMap(redis, new RedisKeys(pipeline.prefix), sellerRef(pipeline.sandbox.baseUrl, MAIN_KEY))),
    );

  /** Yesterday's state: ZW-2 synced by the tool, ZW-1 made under `\u200bZW-1` and recorded so. */
  async function oldState(args: string[]): Promise<string> {
    await sync('old.csv', 'sku,name,price\nZW-2,Zero two,2.00\n', args);
    const answer = await fetch(`${pipeline.sandbox.baseUrl}/products`, {
      method: 'POST',
      headers: { authorization: `Bearer ${MAIN_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ sku: OLD_SKU, name: 'Zero one', price: 1 }),
    });
    expect(answer.status).toBe(201);
    const id = String(pipeline.products().find((product) => product.sku === OLD_SKU)?.id);
    await idMap((map) => map.remember(OLD_SKU, { id, sent: { sku: OLD_SKU, name: 'Zero one', price: 1 } }));
    return id;
  }

  it.each([
    ['a full run', []],
    ['a full run with --missing quantity=0', ['--missing', 'quantity=0']],
    ['--incremental relying on the record', ['--incremental']],
  ])(
    '%s: the clean row finds the product, cleans its SKU once, and the next night is unchanged',
    async (_, args) => {
      const id = await oldState(args);

      const upgraded = await sync('clean.csv', CLEAN_CSV, args);

      if (args.includes('--incremental')) expect(upgraded.lists).toBe(0);
      expect(upgraded).toMatchObject({ creates: 0, updates: 1 });
      expect([...bySku(pipeline.products()).keys()].sort()).toEqual(['ZW-1', 'ZW-2']);
      expect(upgraded.lines.find((line) => line.key === 'ZW-1')).toMatchObject({
        action: 'update',
        status: 'ok',
        product_id: id,
        note: 'sku was "\\u200bZW-1" on the marketplace (an invisible U+200B at its start): sent as ZW-1',
      });
      expect(upgraded.lines.some((line) => line.action === 'deactivate')).toBe(false);
      // Known by its clean SKU alone: the next night needs no second look.
      const recorded = await idMap(async (map) => {
        const known = await map.getMany(['ZW-1', OLD_SKU]);
        return { clean: known.get('ZW-1')?.id, old: known.get(OLD_SKU)?.id ?? null, size: await map.size() };
      });
      expect(recorded).toEqual({ clean: id, old: null, size: 2 });

      const again = await sync('again.csv', CLEAN_CSV, args);
      expect(again).toMatchObject({ creates: 0, updates: 0 });
      expect(again.lines.every((line) => line.action === 'unchanged')).toBe(true);
      expect(pipeline.products()).toHaveLength(2);
    },
  );
});
