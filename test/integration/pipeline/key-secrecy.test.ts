import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { MAIN_KEY, usePipeline } from '../support/pipeline.js';
import { dumpPrefix, withRedis } from '../support/redis-prefix.js';

describe("the seller's API key", () => {
  const pipeline = usePipeline();

  it('reaches neither Redis, nor the report, nor the output, even at LOG_LEVEL=trace', async () => {
    const rows = [...catalogRows(30), { sku: 'BAD', name: 'Bad', price: 'x' }];
    const source = await pipeline.csv('catalog.csv', rows);
    const report = join(pipeline.dir, 'report.csv');
    // A queued run (jobs in Redis) and a finished one.
    const queued = await pipeline.cli(['import', await pipeline.csv('other.csv', catalogRows(5, 500))], {
      LOG_LEVEL: 'trace',
    });
    const run = await pipeline.cli(['run', source, '--report', report], { LOG_LEVEL: 'trace' });
    const status = await pipeline.cli(['status', runIdOf(run.stdout), '--json']);

    const stored = await withRedis((redis) => dumpPrefix(redis, pipeline.prefix));

    expect(stored).toContain(runIdOf(queued.stdout));
    expect(stored).toContain('SELLER_API_KEY');
    expect(stored).not.toContain(MAIN_KEY);
    expect(await pipeline.readText('report.csv')).not.toContain(MAIN_KEY);
    for (const output of [queued, run, status]) {
      expect(output.stdout + output.stderr).not.toContain(MAIN_KEY);
    }
    expect(run.stderr).not.toBe('');
  });
});
