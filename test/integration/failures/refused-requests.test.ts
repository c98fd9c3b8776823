import { afterEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { freePort } from '../support/own-redis.js';
import { eventually, KEY_A, type RunStatus, runDone, SELLER_A, useFailureRig } from './support/rig.js';

const ROWS = 6;
const DAILY_LIMIT = 1_000;

type CountedStatus = RunStatus & { requests: number };

/**
 * A request whose connection was refused never reached the API: the API did not count it against
 * the seller's day, so neither does the tool (the day's count, the run's `requests`). The base URL
 * is a loopback port where nothing listens, then the sandbox starts on that very port and counts
 * what it receives. Nothing leaves loopback.
 */
describe('requests whose connection was refused', () => {
  const rig = useFailureRig();
  let api: Sandbox | null = null;
  afterEach(async () => {
    await api?.close();
    api = null;
  });

  async function closedApi(extra: NodeJS.ProcessEnv = {}) {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}/api/v1`;
    const env = rig.env(KEY_A, { SELLER_API_BASE_URL: baseUrl, CATALOG_SYNC_PROBE_MS: '200', ...extra });
    const start = async () => {
      // A daily limit the run never meets: the sandbox counts the key's requests of the day.
      api = await startSandbox({ port, dailyLimit: DAILY_LIMIT, keys: [{ key: KEY_A, seller: SELLER_A }] });
    };
    return { env, start };
  }

  /**
   * What the sandbox counted against the key's day (its daily limit's count), read from the
   * remaining it answers a ping of the test's own with: that ping is not counted here.
   */
  async function spentAtTheApi(sandbox: Sandbox): Promise<number> {
    const answer = await fetch(`${sandbox.baseUrl}/ping`, { headers: { Authorization: `Bearer ${KEY_A}` } });
    expect(answer.status).toBe(200);
    return DAILY_LIMIT - Number(answer.headers.get('x-ratelimit-remaining')) - 1;
  }

  it('`run`: the refused tries are not a request of the day nor of the run', {
    timeout: 60_000,
  }, async () => {
    const { env, start } = await closedApi();
    const source = await rig.csv('catalog.csv', catalogRows(ROWS));

    const refused = await rig.cli(['run', source], env);
    expect(refused.code, refused.stderr).toBe(6);
    const runId = runIdOf(refused.stderr);
    const before = (await rig.status(runId, env)) as CountedStatus;
    // Every try met a closed port: nothing was sent.
    expect(before.requests).toBe(0);
    expect(before.seller.requestsToday).toBe(0);
    // The next run's ping, refused too, was not sent either.
    const still = await rig.cli(['run', source], env);
    expect(still.code, still.stderr).toBe(6);
    expect(((await rig.status(runId, env)) as CountedStatus).seller.requestsToday).toBe(0);

    await start();
    const again = await rig.cli(['run', source], env);
    expect(again.code, again.stderr).toBe(0);

    const served = api!.requests();
    // `run` first lifts the pause with a ping of its own: it reached the API, so it is one of the
    // seller's requests of the day; it goes before the run exists, so it is not one of the run's.
    const pings = served.filter((request) => request.path === '/ping').length;
    expect(pings).toBe(1);
    const status = (await rig.status(runId, env)) as CountedStatus;
    expect(status.requests).toBe(served.length - pings);
    expect(status.seller.requestsToday).toBe(served.length);
    expect(again.stdout).toMatch(new RegExp(`requests\\s+${served.length - pings}\\b`));
    expect(await spentAtTheApi(api!)).toBe(served.length);
  });

  it('a `worker` whose tries and probes were refused for a while counts only what the API received', {
    timeout: 60_000,
  }, async () => {
    const { env, start } = await closedApi();
    const imported = await rig.cli(['import', await rig.csv('catalog.csv', catalogRows(ROWS))], env);
    expect(imported.code, imported.stderr).toBe(0);
    const runId = runIdOf(imported.stdout);

    const worker = rig.spawn(['worker'], { ...env, LOG_LEVEL: 'info' });
    await worker.waitForStderr(/cannot reach .*: seller \w+ paused, the API is probed again in/);
    await eventually('a failed probe', async () => {
      const { seller } = await rig.status(runId, env);
      const probes = (seller as { unreachable?: { probes: number } | null }).unreachable?.probes ?? 0;
      return probes >= 1 ? probes : undefined;
    });
    const paused = (await rig.status(runId, env)) as CountedStatus;
    expect(paused.requests).toBe(0);
    expect(paused.seller.requestsToday).toBe(0);

    await start();
    const done = (await runDone(rig, runId)) as CountedStatus;
    expect(done.counts).toMatchObject({ created: ROWS, failed: 0 });
    const served = api!.requests();
    // The worker's probe that found the API back is a request of the run, as are the rest.
    expect(done.requests).toBe(served.length);
    expect(done.seller.requestsToday).toBe(served.length);
    expect(await spentAtTheApi(api!)).toBe(served.length);
  });
});
