import { describe, expect, it } from 'vitest';
import { displayRedisUrl } from '../../../src/redis/connect.js';
import { catalogRows, parseCsv } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { TEST_REDIS_URL } from '../support/redis-prefix.js';
import { eventually, runDone, SELLER_A, useFailureRig } from './support/rig.js';

const ROWS = 250;
const DAILY_LIMIT = 10;

describe('`catalog-sync cancel` of a run paused on the daily limit', () => {
  // Short days: the pause lifts by itself soon after, so a worker started then would send what is left.
  const rig = useFailureRig(() => ({ dailyLimit: DAILY_LIMIT, dayLengthMs: 2000 }));

  it('removes its jobs, reports every row (the unsettled ones skipped: cancelled), and a later worker sends nothing for it', {
    timeout: 60_000,
  }, async () => {
    const source = await rig.csv('catalog.csv', catalogRows(ROWS));
    const paused = await rig.cli(['run', source, '--no-wait', '--concurrency', '2']);
    expect(paused.code).toBe(4);
    const runId = runIdOf(paused.stderr);

    const cancelled = await rig.cli(['cancel', runId]);

    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stdout).toContain(`run ${runId}: cancelled`);
    const status = await rig.status(runId);
    expect(status.state).toBe('cancelled');
    expect((status as unknown as { cancelledAt: number }).cancelledAt).toBeGreaterThan(0);
    const report = parseCsv((await rig.cli(['report', runId])).stdout);
    expect(report.map((line) => Number(line.row))).toEqual(catalogRows(ROWS).map((_, i) => i + 1));
    const created = report.filter((line) => line.action === 'create' && line.status === 'ok');
    const skipped = report.filter((line) => line.action === 'skipped');
    expect(created.length).toBeGreaterThan(0);
    expect(created.length + skipped.length).toBe(ROWS);
    expect(new Set(skipped.map((line) => `${line.status}:${line.error}`))).toEqual(new Set(['ok:cancelled']));

    // A worker started afterwards serves the seller's queue in order: once a new run of the same
    // seller is done, anything of the cancelled run would have gone first.
    const next = catalogRows(3, 9001);
    const imported = await rig.cli(['import', await rig.csv('next.csv', next)]);
    const nextId = runIdOf(imported.stdout);
    rig.spawn(['worker']);
    await runDone(rig, nextId);

    const skus = rig.sandbox.products(SELLER_A).map((product) => String(product.sku));
    expect(skus.sort()).toEqual([...created.map((line) => line.key), ...next.map((row) => row.sku)].sort());
    expect((await rig.status(runId)).state).toBe('cancelled');
  });

  it('refuses a run that is done, and an unknown id, with one line and exit 2', async () => {
    const source = await rig.csv('small.csv', catalogRows(3));
    const done = await rig.cli(['run', source]);
    expect(done.code).toBe(0);
    const runId = runIdOf(done.stdout);

    const again = await rig.cli(['cancel', runId]);
    const unknown = await rig.cli(['cancel', '20200101T000000-abcdef']);

    expect(again.code).toBe(2);
    expect(again.stderr).toBe(`catalog-sync: run ${runId} is already done: nothing to cancel\n`);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      `catalog-sync: no run 20200101T000000-abcdef in Redis at ${displayRedisUrl(TEST_REDIS_URL)} under CATALOG_SYNC_PREFIX=${rig.prefix} (runs are kept 7 days)\n`,
    );
  });
});

describe('`catalog-sync cancel` of a run a live worker is working on', () => {
  const rig = useFailureRig(() => ({ latencyMs: 20 }));

  it('removes what is still queued, lets the chunks in progress settle, then ends the run cancelled', {
    timeout: 60_000,
  }, async () => {
    const imported = await rig.cli(['import', await rig.csv('catalog.csv', catalogRows(ROWS + 250))]);
    const runId = runIdOf(imported.stdout);
    rig.spawn(['worker', '--concurrency', '2']);
    await eventually('some rows settled', async () =>
      (await rig.status(runId)).settled >= 10 ? true : undefined,
    );

    const cancelled = await rig.cli(['cancel', runId]);

    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stdout).toMatch(/cancelling; \d+ chunk\(s\) in progress|: cancelled/);
    const ended = await eventually('the run to end cancelled', async () => {
      const status = await rig.status(runId);
      return status.state === ('cancelled' as string) ? status : undefined;
    });
    expect(ended.settled).toBe(ROWS + 250);
    const report = parseCsv((await rig.cli(['report', runId])).stdout);
    const created = report.filter((line) => line.action === 'create' && line.status === 'ok');
    const skipped = report.filter((line) => line.action === 'skipped');
    expect(skipped.length).toBeGreaterThan(0);
    expect(created.length + skipped.length).toBe(ROWS + 250);
    expect(new Set(skipped.map((line) => line.error))).toEqual(new Set(['cancelled']));
    // Every product written is a row the report calls created: nothing was cut in half or lost.
    const skus = rig.sandbox.products(SELLER_A).map((product) => String(product.sku));
    expect(skus.sort()).toEqual(created.map((line) => line.key).sort());
  });
});
