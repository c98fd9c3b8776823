import { utimes } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { type CliResult, runIdOf } from '../support/cli.js';
import { MAIN_SELLER, type Pipeline, usePipeline } from '../support/pipeline.js';

const PRODUCTS = 30;

/** The seller's products as made by hand before any run: each at its base price. */
function seed(pipeline: Pipeline): void {
  pipeline.sandbox.seedProducts(
    MAIN_SELLER,
    catalogRows(PRODUCTS).map(({ sku, name, price }) => ({ sku, name, price: Number(price) })),
  );
}

/**
 * The night's file, at one path night after night: each price its base plus `plus`. Its mtime is
 * set apart from the other nights' (the size stays the same), so that it is another content.
 */
async function nightlyFile(pipeline: Pipeline, plus: number, night: number): Promise<string> {
  const rows = catalogRows(PRODUCTS).map((row) => ({ ...row, price: (Number(row.price) + plus).toFixed(2) }));
  const path = await pipeline.csv('feed.csv', rows);
  const at = new Date(Date.UTC(2026, 0, night, 2));
  await utimes(path, at, at);
  return path;
}

async function statusOf(pipeline: Pipeline, runId: string) {
  return JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout);
}

/** Polls `status` until the seller is no longer paused: the sandbox's next day began. */
async function untilUnpaused(pipeline: Pipeline, runId: string): Promise<void> {
  while ((await statusOf(pipeline, runId)).seller.pausedUntil !== null) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The prices the PUTs the sandbox answered carried, in order. */
function putPrices(pipeline: Pipeline): number[] {
  return pipeline.sandbox
    .requests()
    .filter((request) => request.method === 'PUT' && request.status === 200)
    .map((request) => Number((request.body as { price?: unknown }).price));
}

describe('cron alone, `run --no-wait` each night: a changed file the day after a run that exited 4', () => {
  // 5 s "days", 20 requests a day, the reset in epoch milliseconds: each night gets its own day.
  const DAY_MS = 5000;
  const pipeline = usePipeline({ dailyLimit: 20, dayLengthMs: DAY_MS, resetHeader: 'x-ratelimit-reset-ms' });

  it("spends the new day's requests on tonight's values: last night's run, nobody writing it, is superseded", {
    timeout: 60_000,
  }, async () => {
    seed(pipeline);
    // Night 1 at the start of a sandbox day: it cannot cross into the next one and finish.
    await new Promise((resolve) => setTimeout(resolve, DAY_MS - (Date.now() % DAY_MS) + 50));
    const lastNight = await pipeline.cli(['run', await nightlyFile(pipeline, 100, 1), '--no-wait']);
    expect(lastNight.code, lastNight.stderr).toBe(4);
    const lastNightRun = runIdOf(lastNight.stderr);
    const writtenLastNight = putPrices(pipeline);
    expect(writtenLastNight.length).toBeGreaterThan(0);
    expect(writtenLastNight.length).toBeLessThan(PRODUCTS);

    // Night 2: the pause is over (the process that waited out nothing exited long ago), the file changed.
    await untilUnpaused(pipeline, lastNightRun);
    pipeline.sandbox.resetStats();
    const tonight = await pipeline.cli(['run', await nightlyFile(pipeline, 200, 2), '--no-wait']);

    expect(tonight.code, tonight.stderr).toBe(4);
    const tonightRun = runIdOf(tonight.stderr);
    expect(tonightRun).not.toBe(lastNightRun);
    // Every PUT of the new day carried tonight's price (before: 11 of its 19 carried last night's).
    const prices = putPrices(pipeline);
    expect(prices.length).toBeGreaterThan(0);
    expect(prices.filter((price) => price < 200)).toEqual([]);
    // Last night's run is over, superseded by tonight's: what it wrote stays written, the rest skipped.
    const earlier = await statusOf(pipeline, lastNightRun);
    expect(earlier).toMatchObject({ state: 'cancelled', supersededBy: tonightRun, settled: PRODUCTS });
    expect(earlier.stateText).toContain(`superseded by run ${tonightRun}`);
    expect(earlier.counts).toMatchObject({
      updated: writtenLastNight.length,
      skipped: PRODUCTS - writtenLastNight.length,
    });
  });
});

describe('a `run` waiting out the daily limit when a changed file of its source is run', () => {
  // Long days: the pause outlasts the test. 12 requests a day: two days' worth never end night 1.
  const pipeline = usePipeline({ dailyLimit: 12, dayLengthMs: 120_000, resetHeader: 'x-ratelimit-reset-ms' });

  it('ends saying which run superseded it, exit 0: nothing of it failed, and run B sends the values', {
    timeout: 60_000,
  }, async () => {
    seed(pipeline);
    const waiting: Promise<CliResult> = pipeline.cli(['run', await nightlyFile(pipeline, 100, 1)]);
    // Until it waits out the limit (its own `run` process still alive and waiting).
    let lastNightRun: string | null = null;
    while (lastNightRun === null) {
      const status = await pipeline.cli(['status', '--json']);
      const latest = status.code === 0 ? JSON.parse(status.stdout) : null;
      if (latest?.seller.pausedUntil) lastNightRun = latest.id as string;
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const tonight = await pipeline.cli(['run', await nightlyFile(pipeline, 200, 2), '--no-wait']);
    const superseded = await waiting;

    expect(tonight.code, tonight.stderr).toBe(4);
    const tonightRun = runIdOf(tonight.stderr);
    expect(superseded.code, superseded.stderr).toBe(0);
    expect(superseded.stdout).toContain(
      `run ${lastNightRun}: superseded by run ${tonightRun} (a newer read of the same source)`,
    );
    // What it wrote before the limit stays written; the rest is skipped, none failed.
    const rows = /rows {6}30: 0 created, (\d+) updated, 0 unchanged, 0 invalid, 0 failed, (\d+) skipped/.exec(
      superseded.stdout,
    );
    expect(rows, superseded.stdout).not.toBeNull();
    expect(Number(rows?.[1]) + Number(rows?.[2])).toBe(PRODUCTS);
    expect(Number(rows?.[1])).toBeGreaterThan(0);
  });
});
