import { describe, expect, it } from 'vitest';
import { runIdOf } from '../support/cli.js';
import { requestCounts, usePipeline } from '../support/pipeline.js';
import { nameAndPrice, putsSinceReset } from './support.js';

// The API keeps its own form: names trimmed and spaces collapsed, prices rounded to cents.
const FIRST = [{ sku: 'SCARF', name: '  Wool   scarf ', price: '12.3456' }];
const CHANGED = [{ sku: 'SCARF', name: ' Wool  scarf,  red ', price: '13.9951' }];

describe('`revert` against an API that keeps its own form of what it is sent (sandbox --normalize)', () => {
  const pipeline = usePipeline({ normalize: true });

  async function run(name: string, rows: typeof FIRST) {
    // Four decimals taken as money: the tool sends 12.3456 as the file has it, and the API rounds it.
    const result = await pipeline.cli(['run', await pipeline.csv(name, rows), '--price-decimals', '4']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    return runIdOf(result.stdout);
  }

  it('puts back the form the API showed before, sees its own form as the run left it, and is quiet after', async () => {
    await run('first.csv', FIRST);
    const changing = await run('changed.csv', CHANGED);
    expect(nameAndPrice(pipeline, 'SCARF')).toEqual({ name: 'Wool scarf, red', price: 14 });
    pipeline.sandbox.resetStats();

    const reverted = await pipeline.cli(['revert', changing]);

    expect(reverted.code).toBe(0);
    expect(nameAndPrice(pipeline, 'SCARF')).toEqual({ name: 'Wool scarf', price: 12.35 });
    expect(putsSinceReset(pipeline).map((put) => put.body)).toEqual([{ name: 'Wool scarf', price: 12.35 }]);

    pipeline.sandbox.resetStats();
    expect((await pipeline.cli(['revert', changing])).code).toBe(0);
    expect(putsSinceReset(pipeline)).toEqual([]);

    // The file from before the run: the product shows what it showed after that file's run, so no write.
    pipeline.sandbox.resetStats();
    const before = await pipeline.cli([
      'run',
      await pipeline.csv('first-again.csv', FIRST),
      '--price-decimals',
      '4',
    ]);
    expect(before.stdout).toContain('0 created, 0 updated, 1 unchanged');
    expect(requestCounts(pipeline.sandbox.stats()).updates).toBe(0);

    // The changed file again: the change goes out again, once.
    await run('changed-again.csv', CHANGED);
    expect(nameAndPrice(pipeline, 'SCARF')).toEqual({ name: 'Wool scarf, red', price: 14 });
    expect(requestCounts(pipeline.sandbox.stats()).updates).toBe(1);
  });
});
