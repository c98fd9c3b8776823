import { describe, expect, it } from 'vitest';
import { pricesDoubledHeld } from '../support/held-run.js';
import { type Pipeline, usePipeline } from '../support/pipeline.js';
import { until } from '../support/until.js';

async function statusOf(pipeline: Pipeline, runId: string) {
  return JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout) as {
    state: string;
    counts: Record<string, number>;
  };
}

const puts = (pipeline: Pipeline) => pipeline.sandbox.stats().byRoute['PUT /products'] ?? 0;

/**
 * `approve` interrupted while its writes go out (a spawned process, Ctrl-C once some PUTs were
 * answered): every write it sent is recorded before it exits, so the next `approve` sends each
 * row once in all, and its line counts what was sent and what stays queued, from the record.
 */
describe('approve, interrupted while it sends', () => {
  const pipeline = usePipeline();

  it('records every write it sent, says what it sent, and the next approve sends only the rest', {
    timeout: 60_000,
  }, async () => {
    const runId = await pricesDoubledHeld(pipeline, 40);
    pipeline.sandbox.resetStats();
    pipeline.sandbox.setFaults({ latencyMs: 300 });
    // A close deadline shorter than the rest of the round (30-odd rows at 300 ms, 2 at a time): a
    // close that let the chunk run on was cut off with writes answered and not recorded.
    const approve = pipeline.spawn(['approve', runId, '--concurrency', '2'], {
      CATALOG_SYNC_CLOSE_DEADLINE_MS: '1000',
    });
    await until('six PUTs answered', () => puts(pipeline) >= 6);
    approve.process.kill('SIGINT');

    expect(await approve.exited).toEqual({ code: 130, signal: null });
    const sent = puts(pipeline);
    const status = await statusOf(pipeline, runId);
    expect(status.counts.updated).toBe(sent);
    expect(sent).toBeLessThan(40);
    expect(approve.stderr().trim().split('\n')).toEqual([
      `catalog-sync: interrupted (SIGINT): ${sent} of the 40 approved rows of run ${runId} settled before it stopped, ` +
        `${40 - sent} stay queued and go on with any \`catalog-sync worker\` or another \`catalog-sync approve ${runId}\`.`,
    ]);

    pipeline.sandbox.setFaults({ latencyMs: 0 });
    const next = await pipeline.cli(['approve', runId]);
    expect(next.code, next.stderr).toBe(0);
    expect(puts(pipeline)).toBe(40);
  });
});
