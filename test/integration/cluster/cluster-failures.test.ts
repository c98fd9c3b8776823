import { describe, expect, it } from 'vitest';
import { expectExactCatalog } from '../failures/support/exact-catalog.js';
import {
  eventually,
  type FailureRig,
  importAndKillTwice,
  type RunStatus,
  SELLER_A,
  useFailureRig,
} from '../failures/support/rig.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { clusterUnsupported, useTestCluster } from '../support/redis-cluster.js';

const unsupported = clusterUnsupported();
const title = (what: string) =>
  `${what} on a Redis Cluster of 3 masters${unsupported ? `: skipped, ${unsupported}` : ''}`;

/** The rig's environment pointed at the cluster; REDIS_URL at a port where nothing answers. */
function onCluster(rig: FailureRig, nodes: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return rig.env(undefined, { REDIS_CLUSTER: nodes, REDIS_URL: 'redis://127.0.0.1:1', ...extra });
}

function runDone(rig: FailureRig, env: NodeJS.ProcessEnv, runId: string): Promise<RunStatus> {
  return eventually(
    `run ${runId} to be done`,
    async () => {
      const status = await rig.status(runId, env);
      return status.state === 'done' ? status : undefined;
    },
    { timeoutMs: 45_000, intervalMs: 250 },
  );
}

describe.skipIf(unsupported !== null)(title('a seller paused by its daily limit'), () => {
  const cluster = useTestCluster();
  // An 8-second sandbox day that starts with the sandbox, so the limited run and the status read
  // after it fall inside the first day (a day aligned to the wall clock could end a moment after the
  // 429, and the pause with it, before the status is read); the pause then ends by itself. 45 a day:
  // the first run is cut by the limit, and what is left of both runs fits in the second day.
  const rig = useFailureRig(() => {
    const start = Date.now();
    return { dailyLimit: 45, dayLengthMs: 8000, now: () => Date.now() - start };
  });

  it('is paused (exit 4), then both runs go on after the reset with no duplicate', {
    timeout: 60_000,
  }, async () => {
    const env = onCluster(rig, cluster.cluster.nodes);
    const rows = catalogRows(60);
    const limited = await rig.cli(['run', await rig.csv('monday.csv', rows), '--no-wait'], env);
    expect(limited.code).toBe(4);
    const paused = await rig.status(runIdOf(limited.stderr), env);
    expect(paused.seller.pausedUntil).not.toBeNull();
    // The next night's cron: the same products, another file, queued behind the paused run.
    const queued = await rig.cli(['import', await rig.csv('tuesday.csv', rows)], env);
    expect(queued.code).toBe(0);

    rig.spawn(['worker', '--concurrency', '4'], env);
    const [first, second] = await Promise.all([
      runDone(rig, env, runIdOf(limited.stderr)),
      runDone(rig, env, runIdOf(queued.stdout)),
    ]);

    expectExactCatalog(rig.sandbox.products(SELLER_A), rows);
    expect([first.counts.failed, second.counts.failed]).toEqual([0, 0]);
    expect((first.counts.created ?? 0) + (second.counts.created ?? 0)).toBe(rows.length);
  });
});

describe.skipIf(unsupported !== null)(title('worker processes killed (SIGKILL) mid-run'), () => {
  const cluster = useTestCluster();
  // 20 ms per answer: the run lasts a few seconds, so the kills land mid-chunk.
  const rig = useFailureRig(() => ({ latencyMs: 20 }));

  it('leave their chunks to a later worker; the run ends exact, every row created once', {
    timeout: 90_000,
  }, async () => {
    const rows = catalogRows(300);
    // A killed worker's jobs come back once their 2-second lock runs out.
    const env = onCluster(rig, cluster.cluster.nodes, { CATALOG_SYNC_LOCK_MS: '2000' });
    const runId = await importAndKillTwice(rig, rows, env);
    const done = await runDone(rig, env, runId);

    expectExactCatalog(rig.sandbox.products(SELLER_A), rows);
    expect(done.settled).toBe(rows.length);
    expect(done.counts).toMatchObject({ created: rows.length, unchanged: 0, failed: 0, invalid: 0 });
  });
});
