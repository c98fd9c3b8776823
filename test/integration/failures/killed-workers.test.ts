import { describe, expect, it } from 'vitest';
import { watchTakeover } from '../../../bench/goals/takeover-watch.js';
import { type CatalogRow, catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { withRedis } from '../support/redis-prefix.js';
import { expectExactCatalog } from './support/exact-catalog.js';
import {
  eventually,
  type FailureRig,
  importAndKillTwice,
  type RunStatus,
  runDone,
  SELLER_A,
  useFailureRig,
} from './support/rig.js';

const ROWS = 300;

/**
 * Imports ROWS rows, then worker 1 is killed after 60 writes, worker 2 after 160, and worker 3
 * ends the run. Resolves to the run's final status.
 */
async function runWithTwoKills(rig: FailureRig, rows: CatalogRow[]): Promise<RunStatus> {
  // A killed worker's jobs come back once their 2-second lock runs out.
  const env = rig.env(undefined, { CATALOG_SYNC_LOCK_MS: '2000' });
  return runDone(rig, await importAndKillTwice(rig, rows, env));
}

describe('when worker processes are killed (SIGKILL) in the middle of a run', () => {
  // 20 ms per answer and 2 requests at once: the run lasts a few seconds, so the kills land mid-chunk.
  const rig = useFailureRig(() => ({ latencyMs: 20 }));

  it('a later worker takes the killed workers’ chunks back; the run ends exact, every row reported created', {
    timeout: 60_000,
  }, async () => {
    const rows = catalogRows(ROWS);

    const done = await runWithTwoKills(rig, rows);

    expectExactCatalog(rig.sandbox.products(SELLER_A), rows);
    expect(done.settled).toBe(ROWS);
    // Also the rows a killed worker created but had not settled: not `unchanged` on the re-diff.
    expect(done.counts).toMatchObject({ created: ROWS, unchanged: 0, failed: 0, invalid: 0 });
  });
});

describe('when one of two workers is killed (SIGKILL) in the middle of a run', () => {
  const rig = useFailureRig(() => ({ latencyMs: 20 }));
  // The seam: a 3 s lock and a stall check every 300 ms (default 10 s and 5 s: ≤ 15 s). The margin
  // covers the watch's 20 ms polls and timers late on a loaded machine, not another stall check.
  const LOCK_MS = 3000;
  const CHECK_MS = 300;
  const MARGIN_MS = 1000;

  it('the other takes the killed worker’s chunks back within lock + stall check, and the run ends exact', {
    timeout: 60_000,
  }, async () => {
    const rows = catalogRows(600);
    const env = rig.env(undefined, {
      CATALOG_SYNC_LOCK_MS: String(LOCK_MS),
      CATALOG_SYNC_STALL_CHECK_MS: String(CHECK_MS),
    });
    const imported = await rig.cli(['import', await rig.csv('catalog.csv', rows)], env);
    expect(imported.code).toBe(0);
    const runId = runIdOf(imported.stdout);
    const killed = rig.spawn(['worker', '--concurrency', '2'], env);
    rig.spawn(['worker', '--concurrency', '2'], env);

    await eventually(
      '60 writes applied',
      () => (rig.sandbox.stats().writesApplied >= 60 ? true : undefined),
      {
        intervalMs: 5,
      },
    );
    const killedAt = Date.now();
    const sentBeforeKill = rig.sandbox.requests().length;
    killed.process.kill('SIGKILL');
    expect(await killed.exited).toEqual({ code: null, signal: 'SIGKILL' });
    // The jobs active at the kill: the killed worker's (their locks now run out) and the other's.
    const watch = await withRedis(async (redis) => {
      const watching = await watchTakeover(redis, rig.prefix);
      const done = await runDone(rig, runId);
      return { done, takenAt: await watching.stop() };
    });

    expect(watch.takenAt.size).toBeGreaterThan(0);
    const latest = Math.max(...watch.takenAt.values()) - killedAt;
    expect(latest).toBeLessThanOrEqual(LOCK_MS + CHECK_MS + MARGIN_MS);
    expectExactCatalog(rig.sandbox.products(SELLER_A), rows);
    expect(watch.done.counts).toMatchObject({ created: rows.length, unchanged: 0, failed: 0 });
    // The killed worker's claims, on every chunk it held, are looked up with one read of the
    // products between them (its first page: no `page`), not one per chunk or per turn of rows.
    const readsSince = rig.sandbox
      .requests()
      .slice(sentBeforeKill)
      .filter((request) => request.method === 'GET' && request.path === '/products' && !request.query.page);
    expect(readsSince.length).toBeLessThanOrEqual(1);
  });
});

describe('when a worker is stopped with SIGTERM in the middle of a run', () => {
  const rig = useFailureRig(() => ({ latencyMs: 20 }));

  it('exits 0 once its jobs in progress are done, and another worker ends the run exact', {
    timeout: 60_000,
  }, async () => {
    const rows = catalogRows(ROWS);
    const source = await rig.csv('catalog.csv', rows);
    const imported = await rig.cli(['import', source]);
    const runId = runIdOf(imported.stdout);
    const first = rig.spawn(['worker', '--concurrency', '2']);
    await eventually(
      '60 writes applied',
      () => (rig.sandbox.stats().writesApplied >= 60 ? true : undefined),
      {
        intervalMs: 5,
      },
    );

    first.process.kill('SIGTERM');

    expect(await first.exited).toEqual({ code: 0, signal: null });
    expect((await rig.status(runId)).state).not.toBe('done');
    const stoppedAt = rig.sandbox.stats().total;
    rig.spawn(['worker', '--concurrency', '2']);
    await runDone(rig, runId);
    expect(rig.sandbox.stats().total).toBeGreaterThan(stoppedAt);
    expectExactCatalog(rig.sandbox.products(SELLER_A), rows);
  });
});
