import { describe, expect, it } from 'vitest';
import { runIdOf, startCli } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';
import { useStallingFeed } from '../support/stalling-feed.js';
import { until } from '../support/until.js';

// Ctrl-C while `run` still read its source said "its rows are not synced. Run it again." where
// `status` showed 200 rows created: the user could not tell what stayed written, nor whether a
// second run would create them again.
describe('`run` interrupted while it still reads its source', () => {
  const pipeline = usePipeline({ latencyMs: 30 });
  const stallingFeed = useStallingFeed();

  it('says how many rows it wrote, that the rest was not sent, and that a rerun sends it once', {
    timeout: 60_000,
  }, async () => {
    // A feed that sends more than the sniffed 64 KiB, then stalls: the run is mid-read.
    const url = await stallingFeed();
    const run = startCli(['run', url], pipeline.env);
    await until('some creates', () => pipeline.sandbox.stats().writesApplied >= 20);

    run.interrupt();
    const result = await run.result;

    expect(result.code).toBe(130);
    const created = pipeline.products().length;
    expect(created).toBeGreaterThanOrEqual(20);
    const runId = runIdOf(result.stderr);
    expect(result.stderr).toContain(
      `catalog-sync: interrupted (SIGINT) before the source was read to the end: run ${runId} is ended; ` +
        `${created} rows were written before it ended (${created} created, 0 updated), the rest of the source was not sent. ` +
        'Run it again: it sends the rest, and finds the rows written, creating none twice.\n',
    );
    const status = JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout) as {
      state: string;
      counts: Record<string, number>;
    };
    expect(status.state).toBe('done');
    expect(status.counts.created).toBe(created);
  });
});
