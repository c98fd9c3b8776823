import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RedisKeys } from '../../../src/runs/keys.js';
import { parseCsv } from '../support/catalog.js';
import { runIdOf, waitUntilDone } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';

// A run queued by the earlier version (d1ba056) whose list read met a product whose SKU is Excel
// text (`="00123"`), taken up by this version's worker (docs/redis.md, "Upgrading": queued runs are
// taken up as they are). That version found such a product by the run's keyToId under the key as
// written; it kept no index of such keys by their text (…:run:<id>:excel-text-keys), which this one
// asks. Its row must still update that product, not create `00123` beside it.
const OLD_NDJSON = '{"sku":"=\\"00123\\"","name":"Mug","price":"1.00"}\n';
const ERP_CSV = 'sku,name,price\r\n"=""00123""",Mug,1.00\r\n';

describe('a run the earlier version queued over an Excel text SKU, resumed by this one', () => {
  const DAY_MS = 1500;
  // The sandbox's clock stands still until the test moves it a day on (no reset while it looks).
  let sandboxNow = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const pipeline = usePipeline({ dayLengthMs: DAY_MS, now: () => sandboxNow });

  it('updates the product listed under `="00123"`, once, with the row note', {
    timeout: 60_000,
  }, async () => {
    const write = async (name: string, text: string) => {
      const path = join(pipeline.dir, name);
      await writeFile(path, text);
      return path;
    };
    // The earlier version's product, made as it made it (an NDJSON value is read as written).
    expect((await pipeline.cli(['run', await write('old.ndjson', OLD_NDJSON)])).code).toBe(0);
    const made = pipeline.products();
    expect(made.map((product) => product.sku)).toEqual(['="00123"']);
    const id = String(made[0]?.id);

    // The next day, one request a day: the list read, then the row's PUT meets the limit.
    sandboxNow += DAY_MS;
    pipeline.sandbox.setFaults({ dailyLimit: 1 });
    const paused = await pipeline.cli(['run', await write('erp.csv', ERP_CSV), '--no-wait']);
    expect(paused.code, paused.stdout + paused.stderr).toBe(4);
    const runId = runIdOf(paused.stderr);

    // What d1ba056 left: the run record says its list read listed an Excel text key, and keyToId
    // holds `="00123"` → id; it wrote no index of such keys by their text, and no field saying it did.
    const keys = new RedisKeys(pipeline.prefix);
    await withRedis(async (redis) => {
      expect(await redis.hget(keys.run(runId), 'excelTextListed')).toBe('1');
      expect(await redis.hget(keys.keyToId(runId), '="00123"')).toBe(id);
      await redis.del(keys.formerFormKeys(runId, 'excel-text'));
      await redis.hdel(keys.run(runId), 'excelTextIndexed');
    });

    // After the reset this version's worker takes the run up.
    sandboxNow += DAY_MS;
    pipeline.spawn(['worker']);
    await waitUntilDone(pipeline.cli, runId, 30_000);

    expect(pipeline.products().map((product) => [String(product.id), product.sku])).toEqual([[id, '00123']]);
    const report = parseCsv((await pipeline.cli(['report', runId])).stdout);
    expect(report).toHaveLength(1);
    expect(report[0]).toMatchObject({
      key: '00123',
      action: 'update',
      status: 'ok',
      product_id: id,
      note: 'sku was ="00123" (Excel text) on the marketplace: sent as 00123',
    });
  });
});
