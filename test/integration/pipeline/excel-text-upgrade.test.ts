import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RedisKeys } from '../../../src/runs/keys.js';
import { sellerRef } from '../../../src/sellers/seller-ref.js';
import { IdMap } from '../../../src/sync/id-map.js';
import { parseCsv } from '../support/catalog.js';
import { bySku, MAIN_KEY, requestCounts, usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';

// Before the CSV reader read a cell of Excel text (`="00123"`) as its text, such a SKU was sent as
// written: the marketplace has products whose SKU is `="00123"`, and the id map records them under
// that key. After the upgrade the same file's rows are keyed `00123`: matched byte for byte, every
// such product was created a second time. The earlier version's state is made here by the tool
// itself, from an NDJSON file whose values are read as they are (a JSON string is no spreadsheet cell).
const OLD_NDJSON = [
  '{"sku":"=\\"00123\\"","name":"Mug","price":"1.00"}',
  '{"sku":"=\\"A\\"\\"B\\"","name":"Quoted","price":"2.00"}',
  '{"sku":"PLAIN-1","name":"Plain","price":"3.00"}',
].join('\n');
// The same catalog as the ERP exports it, each text cell Excel text (quoted by the CSV).
const ERP_CSV =
  'sku,name,price\r\n"=""00123""",Mug,1.00\r\n"=""A""""B""",Quoted,2.00\r\n"=""PLAIN-1""",Plain,3.00\r\n';

describe('upgrading over products made from Excel text SKUs (`="00123"`)', () => {
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

  /** What the seller's id map holds under each key. */
  const recorded = (keys: string[]) =>
    withRedis(async (redis) => {
      const map = new IdMap(
        redis,
        new RedisKeys(pipeline.prefix),
        sellerRef(pipeline.sandbox.baseUrl, MAIN_KEY),
      );
      const known = await map.getMany(keys);
      return {
        byKey: Object.fromEntries(keys.map((key) => [key, known.get(key)?.id ?? null])),
        size: await map.size(),
      };
    });

  it.each([
    ['a full run', []],
    ['a full run with --missing (nothing is gone)', ['--missing', 'quantity=0']],
    ['--incremental (the id map alone)', ['--incremental']],
  ])('%s finds each product under its old SKU and gives it the clean one, once', async (_, args) => {
    expect(await sync('old.ndjson', OLD_NDJSON, args)).toMatchObject({ creates: 3 });
    const old = bySku(pipeline.products());
    expect([...old.keys()].sort()).toEqual(['="00123"', '="A""B"', 'PLAIN-1']);
    const ids = Object.fromEntries(pipeline.products().map((product) => [product.sku, String(product.id)]));

    const upgraded = await sync('erp.csv', ERP_CSV, args);

    if (args.includes('--incremental')) expect(upgraded.lists).toBe(0);
    expect(upgraded).toMatchObject({ creates: 0, updates: 2 });
    expect([...bySku(pipeline.products()).keys()].sort()).toEqual(['00123', 'A"B', 'PLAIN-1']);
    expect(upgraded.lines.find((line) => line.key === '00123')).toMatchObject({
      action: 'update',
      status: 'ok',
      product_id: ids['="00123"'],
      note: 'sku was ="00123" (Excel text) on the marketplace: sent as 00123',
    });
    expect(upgraded.lines.find((line) => line.key === 'A"B')).toMatchObject({
      action: 'update',
      product_id: ids['="A""B"'],
    });
    expect(upgraded.lines.find((line) => line.key === 'PLAIN-1')).toMatchObject({ action: 'unchanged' });
    expect(upgraded.lines).toHaveLength(3);
    // The id map knows each product by its clean SKU alone: the next night needs no second look.
    expect(await recorded(['00123', '="00123"', 'A"B', '="A""B"'])).toEqual({
      byKey: { '00123': ids['="00123"'], '="00123"': null, 'A"B': ids['="A""B"'], '="A""B"': null },
      size: 3,
    });

    const again = await sync('erp-again.csv', ERP_CSV, args);
    expect(again).toMatchObject({ creates: 0, updates: 0 });
    expect(again.lines.every((line) => line.action === 'unchanged')).toBe(true);
    expect(pipeline.products()).toHaveLength(3);
  });
});
