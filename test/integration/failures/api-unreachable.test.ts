import { afterEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { freePort } from '../support/own-redis.js';
import { expectExactCatalog } from './support/exact-catalog.js';
import { eventually, KEY_A, runDone, SELLER_A, useFailureRig } from './support/rig.js';

const ROWS = 20;

/**
 * The Seller API out of reach: a base URL on a loopback port where nothing listens (connection
 * refused), then the sandbox started on that very port. Nothing leaves loopback.
 */
describe('when the Seller API cannot be reached at all', () => {
  const rig = useFailureRig();
  let api: Sandbox | null = null;
  afterEach(async () => {
    await api?.close();
    api = null;
  });

  async function closedApi() {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}/api/v1`;
    const env = rig.env(KEY_A, { SELLER_API_BASE_URL: baseUrl, CATALOG_SYNC_PROBE_MS: '200' });
    const start = async () => {
      api = await startSandbox({ port, keys: [{ key: KEY_A, seller: SELLER_A }] });
    };
    return { baseUrl, env, start };
  }

  it('`run` exits 6 with one line naming the base URL and the cause, and keeps every row queued', async () => {
    const { baseUrl, env, start } = await closedApi();
    const rows = catalogRows(ROWS);
    const source = await rig.csv('catalog.csv', rows);

    const result = await rig.cli(['run', source], env);

    expect(result.code).toBe(6);
    const lines = result.stderr.split('\n').filter((line) => line.startsWith('catalog-sync:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`cannot reach ${baseUrl}: connection refused (ECONNREFUSED)`);
    const runId = runIdOf(result.stderr);
    const status = await rig.status(runId, env);
    expect(status.state).not.toBe('done');
    expect(status.settled).toBe(0);
    expect(status.counts.failed).toBe(0);
    expect(status.stateText).toContain(`cannot reach ${baseUrl}`);

    // The API is back: the next `run` of the same source goes on with the queued run, exactly.
    await start();
    const again = await rig.cli(['run', source], env);

    expect(again.stderr).toContain(`${baseUrl} answers again`);
    expect(again.code).toBe(0);
    expect(runIdOf(again.stdout)).toBe(runId);
    expect(again.stdout).toContain(`rows      ${ROWS}: ${ROWS} created, 0 updated`);
    expectExactCatalog(api!.products(SELLER_A), rows);
  });

  it('`ping` and the exports say the same in one line, exit 6: no verdict on the key', async () => {
    const { baseUrl, env } = await closedApi();
    const line = `catalog-sync: cannot reach ${baseUrl}: connection refused (ECONNREFUSED)\n`;

    for (const command of [['ping'], ['products', 'export'], ['orders', 'export']]) {
      const result = await rig.cli(command, { ...env, CATALOG_SYNC_RETRY_BASE_MS: '1' });
      expect(result.code, command.join(' ')).toBe(6);
      expect(result.stderr, command.join(' ')).toBe(line);
    }
  });

  it('a `worker` pauses the seller, probes again by itself, and finishes the run once the API answers', {
    timeout: 60_000,
  }, async () => {
    const { baseUrl, env, start } = await closedApi();
    const rows = catalogRows(ROWS);
    const source = await rig.csv('catalog.csv', rows);
    const imported = await rig.cli(['import', source], env);
    expect(imported.code).toBe(0);
    const runId = runIdOf(imported.stdout);

    const worker = rig.spawn(['worker', '--metrics-port', '0'], { ...env, LOG_LEVEL: 'info' });
    const metricsUrl = (await worker.waitForStdout(/metrics at (http:\/\/\S+)/))[1] as string;
    await worker.waitForStderr(/cannot reach .*: seller \w+ paused, the API is probed again in/);
    const paused = /catalog_sync_seller_paused\{seller="\w+",reason="api-unreachable"\} 1/;
    await eventually('the paused gauge', async () =>
      paused.test(await (await fetch(metricsUrl)).text()) ? true : undefined,
    );
    // Probes keep failing while nothing listens; no row is settled as failed meanwhile.
    await eventually('a second failed probe', async () => {
      const { seller } = await rig.status(runId, env);
      const probes = (seller as { unreachable?: { probes: number } | null }).unreachable?.probes ?? 0;
      return probes >= 1 ? probes : undefined;
    });
    expect((await rig.status(runId, env)).counts.failed).toBe(0);
    await start();
    const done = await runDone(rig, runId).catch((error: Error) => {
      throw new Error(`${error.message}; worker stderr: ${worker.stderr().trim()}`);
    });

    expect(worker.stderr()).toContain(`${baseUrl} answers again`);
    expect(done.counts).toMatchObject({ created: ROWS, failed: 0 });
    expectExactCatalog(api!.products(SELLER_A), rows);
  });
});
