import { describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { type Pipeline, usePipeline } from '../support/pipeline.js';
import { until } from '../support/until.js';

const puts = (pipeline: Pipeline) => pipeline.sandbox.stats().byRoute['PUT /products'] ?? 0;

/** The seller's day as `status --json` says it: requests counted, numbers held reserved (0 when none). */
async function sellerDay(pipeline: Pipeline, runId: string) {
  const { seller } = JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout) as {
    seller: { requestsToday: number; requestsReserved?: number };
  };
  return { requestsToday: seller.requestsToday, requestsReserved: seller.requestsReserved ?? 0 };
}

/** 40 rows synced, then every price changed: a run of 40 updates; its id. */
async function fortyUpdates(pipeline: Pipeline): Promise<string> {
  const rows = catalogRows(40);
  expect((await pipeline.cli(['run', await pipeline.csv('a.csv', rows)])).code).toBe(0);
  const changed = rows.map((row) => ({ ...row, price: String(Number(row.price) + 1) }));
  const run = await pipeline.cli(['run', await pipeline.csv('b.csv', changed)]);
  expect(run.code, run.stderr).toBe(0);
  return runIdOf(run.stdout);
}

/**
 * `revert` interrupted (Ctrl-C) half way through its PUTs, as a spawned process: the PUTs in flight
 * finish, nothing new is sent, and it says in one line what it put back and what is left; it leaves
 * no claim on the seller behind (run again at once, it finishes the revert), no number of the
 * seller's day reserved, and its requests counted; `status` lists the partial revert.
 */
describe('revert, interrupted half way', () => {
  const pipeline = usePipeline();

  it('says what it put back, releases its turn and its reserved numbers, and a second revert finishes it', {
    timeout: 60_000,
  }, async () => {
    const runId = await fortyUpdates(pipeline);
    const before = (await sellerDay(pipeline, runId)).requestsToday;
    pipeline.sandbox.resetStats();
    pipeline.sandbox.setFaults({ latencyMs: 100 });
    const revert = pipeline.spawn(['revert', runId, '--concurrency', '1']);
    await until('five PUTs answered', () => puts(pipeline) >= 5);
    revert.process.kill('SIGINT');

    expect(await revert.exited).toEqual({ code: 130, signal: null });
    const sent = puts(pipeline);
    expect(sent).toBeLessThan(40);
    expect(revert.stderr().trim().split('\n').at(-1)).toBe(
      `catalog-sync: interrupted (SIGINT): run ${runId}: ${sent} products put back, ${40 - sent} left; ` +
        `\`catalog-sync revert ${runId}\` again finishes it`,
    );
    // Every request of the revert counted in the seller's day, no number of it held reserved.
    expect(await sellerDay(pipeline, runId)).toMatchObject({
      requestsToday: before + pipeline.sandbox.stats().total,
      requestsReserved: 0,
    });
    const text = (await pipeline.cli(['status', runId])).stdout;
    expect(text).toMatch(
      new RegExp(
        `^ {2}reverted {2}reverted at \\S+Z: ${sent} products put back, .*${40 - sent} left \\(interrupted: revert it again to finish\\)$`,
        'm',
      ),
    );

    pipeline.sandbox.setFaults({ latencyMs: 0 });
    const again = await pipeline.cli(['revert', runId]);
    expect(again.code, again.stderr).toBe(0);
    expect(puts(pipeline)).toBe(40);
    expect(await sellerDay(pipeline, runId)).toMatchObject({
      requestsToday: before + pipeline.sandbox.stats().total,
      requestsReserved: 0,
    });
  });
});
