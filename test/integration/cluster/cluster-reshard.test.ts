import { describe, expect, it } from 'vitest';
import { sellerRef } from '../../../src/sellers/seller-ref.js';
import { type CatalogRow, catalogRows } from '../support/catalog.js';
import { type CliChild, runIdOf, waitUntilDone } from '../support/cli.js';
import { MAIN_KEY, usePipeline } from '../support/pipeline.js';
import { clusterUnsupported, tlsUnsupported, useTestCluster } from '../support/redis-cluster.js';
import { moveSlotOf } from '../support/slot-move.js';
import { until } from '../support/until.js';

const PASSWORD = 'reshard-pass';
const unsupported = clusterUnsupported() ?? tlsUnsupported();
const ROWS = 600;

/** The same rows with every price changed: a run of them sends one PUT per row. */
function changed(rows: CatalogRow[]): CatalogRow[] {
  return rows.map((row) => ({ ...row, price: `${Math.floor(Number(row.price)) + 1}.50` }));
}

/**
 * A seller's slot moved to another master while a run updates its rows (as `redis-cli --cluster
 * reshard` moves it: IMPORTING/MIGRATING, MIGRATE … KEYS in batches, SETSLOT … NODE). Its commands
 * meet TRYAGAIN and ASK meanwhile: each is an answer of a cluster at work, not a fault, and a row
 * whose PUT was answered is never sent again for a Redis step after it.
 */
describe.skipIf(unsupported !== null)(
  `a seller's slot moved mid-run on a Redis Cluster (password, TLS, replicas)${unsupported ? `: skipped, ${unsupported}` : ''}`,
  () => {
    const holder = useTestCluster({ password: PASSWORD, tls: true }, { replicas: 1 });
    const pipeline = usePipeline();
    const onCluster = (extra: NodeJS.ProcessEnv = {}) => ({
      REDIS_CLUSTER: holder.cluster.value,
      NODE_EXTRA_CA_CERTS: holder.cluster.caFile,
      REDIS_URL: 'redis://127.0.0.1:1',
      ...extra,
    });
    const sellerSlotKey = () => `{${sellerRef(pipeline.sandbox.baseUrl, MAIN_KEY)}}`;
    const puts = () => pipeline.sandbox.stats().byRoute['PUT /products'] ?? 0;

    /** The PUTs the sandbox counted, as its stats endpoint says. */
    async function putsServed(): Promise<number> {
      const stats = (await (
        await fetch(`${new URL(pipeline.sandbox.baseUrl).origin}/__sandbox/stats`)
      ).json()) as {
        byRoute: Record<string, number>;
      };
      return stats.byRoute['PUT /products'] ?? 0;
    }

    /** `catalog-sync …args` as a process (NODE_EXTRA_CA_CERTS is read as Node starts); resolves once it exited. */
    async function cli(args: string[], env: NodeJS.ProcessEnv) {
      const child = pipeline.spawn(args, env);
      const { code } = await child.exited;
      return { code: code ?? -1, stdout: child.stdout(), stderr: child.stderr() };
    }

    /** Creates the rows, then starts a run that changes each of them; resolves once its PUTs are under way. */
    async function changingRun(extra: NodeJS.ProcessEnv = {}): Promise<CliChild> {
      const rows = catalogRows(ROWS);
      const created = pipeline.spawn(['run', await pipeline.csv('first.csv', rows)], onCluster());
      const first = await created.exited;
      expect(first.code, created.stderr()).toBe(0);
      pipeline.sandbox.resetStats();
      const run = pipeline.spawn(
        ['run', await pipeline.csv('changed.csv', changed(rows)), '--concurrency', '8'],
        onCluster({ LOG_LEVEL: 'warn', ...extra }),
      );
      await until('the first PUTs', () => puts() >= 10, 60_000);
      return run;
    }

    /**
     * Waits until `more` PUTs were served since the last call, the run has ended, or `atMostMs` has
     * passed: a move does not wait for the run (with the keys it touches split between two masters a
     * step of it can only wait for the move).
     */
    function paceByPuts(run: CliChild, more: number, atMostMs = 300): () => Promise<void> {
      let ended = false;
      run.exited.then(() => {
        ended = true;
      });
      let last = puts();
      return async () => {
        const since = Date.now();
        await until(
          'the run to go on',
          () => ended || puts() >= last + more || Date.now() - since >= atMostMs,
        );
        last = puts();
      };
    }

    it('sends each changed row once while its keys move in batches across the run', {
      timeout: 120_000,
    }, async () => {
      const run = await changingRun();
      const between = paceByPuts(run, 10, 150);
      const moved = await moveSlotOf(holder.cluster, sellerSlotKey(), { batch: 20, between });
      const { code } = await run.exited;

      expect(moved.batches).toBeGreaterThan(5);
      expect(code, run.stderr()).toBe(0);
      expect(run.stdout()).toContain(`${ROWS} updated, 0 unchanged, 0 invalid, 0 failed`);
      expect(run.stderr()).not.toMatch(/chunk failed|not answered|out of reach/);
      expect(await putsServed()).toBe(ROWS);
    });

    it('waits out a move held half way for longer than CATALOG_SYNC_REDIS_DEADLINE_MS: Redis answered all along', {
      timeout: 120_000,
    }, async () => {
      const deadlineMs = 1500;
      const run = await changingRun({ CATALOG_SYNC_REDIS_DEADLINE_MS: String(deadlineMs) });
      const paced = paceByPuts(run, 15);
      // Half the seller's keys moved, the other half not: a step over both meets TRYAGAIN meanwhile.
      const between = async (batch: number) => {
        if (batch === 3) await new Promise((resolve) => setTimeout(resolve, deadlineMs * 3));
        else await paced();
      };
      await moveSlotOf(holder.cluster, sellerSlotKey(), { batch: 40, between });
      const { code } = await run.exited;

      expect(run.stderr()).not.toMatch(/has not answered|out of reach|source broke/);
      expect(code, run.stderr()).toBe(0);
      expect(run.stdout()).toContain(`${ROWS} updated, 0 unchanged, 0 invalid, 0 failed`);
      expect(await putsServed()).toBe(ROWS);
    });

    it('a worker holds its chunk through a move held half way for longer than its lock, and sends each row once', {
      timeout: 120_000,
    }, async () => {
      const lockMs = 1500;
      const rows = catalogRows(ROWS);
      const created = pipeline.spawn(['run', await pipeline.csv('first.csv', rows)], onCluster());
      expect((await created.exited).code, created.stderr()).toBe(0);
      pipeline.sandbox.resetStats();
      const env = onCluster({
        LOG_LEVEL: 'warn',
        CATALOG_SYNC_LOCK_MS: String(lockMs),
        CATALOG_SYNC_REDIS_DEADLINE_MS: String(lockMs),
      });
      const queued = await cli(['import', await pipeline.csv('changed.csv', changed(rows))], env);
      expect(queued.code, queued.stderr).toBe(0);
      const runId = runIdOf(queued.stdout);
      const worker = pipeline.spawn(['worker', '--concurrency', '8'], env);
      await until('the first PUTs', () => puts() >= 10, 60_000);
      const paced = paceByPuts(worker, 15);
      const between = async (batch: number) => {
        if (batch === 3) await new Promise((resolve) => setTimeout(resolve, lockMs * 4));
        else await paced();
      };
      await moveSlotOf(holder.cluster, sellerSlotKey(), { batch: 40, between });
      const done = await waitUntilDone((args) => cli(args, env), runId);

      expect(done).toMatchObject({
        state: 'done',
        counts: expect.objectContaining({ updated: ROWS, failed: 0 }),
      });
      expect(await putsServed()).toBe(ROWS);
      expect(worker.stderr()).not.toMatch(/has not answered|out of reach/);
    });
  },
);
