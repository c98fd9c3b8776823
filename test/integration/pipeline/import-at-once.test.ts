import { describe, expect, it } from 'vitest';
import { namedSellerRef } from '../../../src/queue/seller-names.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';
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

  /** Imports of one source at once, in this process (`inProcess`) or as the prober ran them. */
  async function importsAtOnce(count: number, inProcess: boolean) {
    const source = await pipeline.csv('catalog.csv', catalogRows(30));
    const args = ['import', source, '--seller', 's3'];
    if (inProcess) return Promise.all(Array.from({ length: count }, () => pipeline.cli(args, BEAT)));
    const children = Array.from({ length: count }, () => pipeline.spawn(args, BEAT));
    return Promise.all(
      children.map(async (child) => {
        const { code } = await child.exited;
        return { code, stdout: child.stdout(), stderr: child.stderr() };
      }),
    );
  }

  it.each([
    ['in this process', true],
    ['as processes of their own', false],
  ])(
    'queue one run, leave no id without its record, and `status --seller` names that run (%s)',
    {
      timeout: 60_000,
    },
    async (_how, inProcess) => {
      const results = await importsAtOnce(4, inProcess);

      expect(results.map((result) => result.code)).toEqual([0, 0, 0, 0]);
      const ids = new Set(results.map((result) => runIdOf(result.stdout)));
      expect(ids.size).toBe(1);
      const [runId] = [...ids] as [string];
      const ref = namedSellerRef(pipeline.sandbox.baseUrl, 's3');
      expect(await indexed(pipeline.prefix, ref)).toEqual({ sellerRuns: [runId], without: [] });
      for (const result of results) {
        // A wait line names only a run `status` finds.
        for (const named of result.stderr.matchAll(/run (\S+) left a reader's mark/g))
          expect(named[1]).toBe(runId);
      }
      const status = await pipeline.cli(['status', '--seller', 's3']);
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toContain(runId);
    },
  );
});
