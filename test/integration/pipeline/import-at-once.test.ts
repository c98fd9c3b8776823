import { describe, expect, it } from 'vitest';
import { sellerRef } from '../../../src/sellers/seller-ref.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { MAIN_KEY, usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';

/**
 * Found by a prober: three `import`s of one file at once queued one run, the others said `already
 * queued as run …` (exit 0), yet their own run ids stayed in the seller's runs and the source's runs
 * with no record: `status --seller` read the newest of them and said the seller had no run (exit 2),
 * and one import told of waiting on the reader's mark of a run `status` never found.
 */
// A beat of a second: the imports that step aside watch the first one's mark, which changes each beat.
const BEAT = { CATALOG_SYNC_PRODUCING_BEAT_MS: '1000' };

describe('imports of the same source started at once (no worker running)', () => {
  const pipeline = usePipeline();

  /** Every run id the seller's runs index and its source's runs list, with whether its record exists. */
  async function indexed(prefix: string, ref: string) {
    return withRedis(async (redis) => {
      const sellerRuns = await redis.zrevrange(`${prefix}:seller:${ref}:runs`, 0, -1);
      const sourceSets = await redis.keys(`${prefix}:seller:${ref}:source-runs:*`);
      const sourceRuns = (await Promise.all(sourceSets.map((key) => redis.zrange(key, 0, -1)))).flat();
      const globalRuns = await redis.zrange(`${prefix}:runs`, 0, -1);
      const ids = [...new Set([...sellerRuns, ...sourceRuns, ...globalRuns])];
      const without = [];
      for (const id of ids) if ((await redis.exists(`${prefix}:run:${id}`)) === 0) without.push(id);
      return { sellerRuns, without };
    });
  }

  it('queues one run, leaves no id without its record, and `status --seller` names that run', async () => {
    const source = await pipeline.csv('catalog.csv', catalogRows(30));

    const results = await Promise.all([1, 2, 3, 4].map(() => pipeline.cli(['import', source], BEAT)));

    expect(results.map((result) => result.code)).toEqual([0, 0, 0, 0]);
    const ids = new Set(results.map((result) => runIdOf(result.stdout)));
    expect(ids.size).toBe(1);
    const [runId] = [...ids] as [string];
    const ref = sellerRef(pipeline.sandbox.baseUrl, MAIN_KEY);
    expect(await indexed(pipeline.prefix, ref)).toEqual({ sellerRuns: [runId], without: [] });
    for (const result of results) {
      // A wait line names only a run `status` finds.
      for (const named of result.stderr.matchAll(/run (\S+) left a reader's mark/g))
        expect(named[1]).toBe(runId);
    }
    const status = await pipeline.cli(['status', '--seller', ref]);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(runId);
  });
});
