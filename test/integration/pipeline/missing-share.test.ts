import { describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { requestCounts, usePipeline } from '../support/pipeline.js';

const MANAGED = catalogRows(10).map((row) => ({ ...row, quantity: '4' }));
const NEW = catalogRows(5, 100).map((row) => ({ ...row, quantity: '4' }));

describe('--max-missing weighs the deactivations against the managed products the run listed', () => {
  const pipeline = usePipeline();

  it("the run's own creates do not count: 3 of 10 gone is past 20%, whatever the run creates beside them", async () => {
    const first = await pipeline.cli(['run', await pipeline.csv('first.csv', MANAGED)]);
    expect(first.code, first.stderr).toBe(0);
    pipeline.sandbox.resetStats();

    // 7 of the 10 again and 5 new rows: 3 of the 10 listed are gone (30%), not 3 of 15 (20%).
    const feed = await pipeline.csv('later.csv', [...MANAGED.slice(0, 7), ...NEW]);
    const result = await pipeline.cli(['run', feed, '--missing', 'quantity=0', '--max-missing', '20%']);

    expect(result.code, result.stdout + result.stderr).toBe(5);
    expect(result.stdout).toContain(
      '3 of 10 managed products would be deactivated (30%), more than --max-missing 20%: nothing was sent',
    );
    // The whole run is held: neither its creates nor the deactivations went out.
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
    expect(pipeline.products().filter((product) => product.quantity === 0)).toHaveLength(0);
  });
});
