import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { RedisKeys } from '../../src/runs/keys.js';
import { eventually, KEY_A, runDone, useFailureRig } from '../integration/failures/support/rig.js';
import { catalogRows } from '../integration/support/catalog.js';
import { runCli, runIdOf, startCli } from '../integration/support/cli.js';
import { TEST_REDIS_URL } from '../integration/support/redis-prefix.js';
import { useWebhookReceiver } from '../integration/support/webhook-receiver.js';
import { type LoopbackNetwork, loopbackNetwork } from './support.js';

// Whatever the code under test does, nothing leaves loopback (see network-guard.ts).
vi.mock('node:dns', async (original) => (await import('./network-guard.js')).guardedDnsLookup(original));
vi.mock('node:dns/promises', async (original) => (await import('./network-guard.js')).guardedDns(original));
vi.mock('node:net', async (original) => (await import('./network-guard.js')).guardedNet(original));
vi.mock('node:tls', async (original) => (await import('./network-guard.js')).guardedTls(original));
vi.mock('node:http', async (original) => (await import('./network-guard.js')).guardedHttp(original));
vi.mock('node:https', async (original) => (await import('./network-guard.js')).guardedHttp(original));

const HOOK_HOST = 'hooks.example.test';
/** What the hook's name answers when the job is queued: a public address (a loopback port plays it). */
const PUBLIC = '198.51.100.7';
/** What it answers later (DNS rebinding): a private address, played by the same loopback port. */
const PRIVATE = '10.0.0.5';

/**
 * A job file's webhook is judged by the job file's address rule before the run is queued, on what
 * its name resolves to then. The POST comes later (from `run`, or from any worker that serves the
 * run): a name that resolves to a private address by then must not be told unless the process
 * that sends the POST was given --allow-private-source. A webhook the operator gave (--notify), and
 * a run queued by a version that did not record where its webhook came from, are told as before.
 */
describe("a job file's webhook whose name rebinds to a private address after the run is queued", () => {
  const rig = useFailureRig();
  const hook = useWebhookReceiver();
  let hookUrl = '';
  let jobPath = '';

  beforeEach(async () => {
    hookUrl = `http://${HOOK_HOST}:${new URL(hook.url).port}/hooks/T000/secret-token`;
    await mkdir(join(rig.dir, 'jobs'));
    jobPath = join(rig.dir, 'jobs', 'nightly.yml');
    const source = await rig.csv('catalog.csv', catalogRows(2));
    await writeFile(jobPath, `source: ${source}\nnotify: ${hookUrl}\n`);
  });

  /** The hook's name answers PUBLIC to its first lookup, PRIVATE to every later one. */
  function rebinding(): LoopbackNetwork {
    const names: Record<string, string> = { [HOOK_HOST]: PUBLIC };
    const port = Number(new URL(hook.url).port);
    const network = loopbackNetwork(names, { [PUBLIC]: port, [PRIVATE]: port });
    const firstLookup = network.lookup;
    network.lookup = async (hostname) => {
      const answer = await firstLookup(hostname);
      if (hostname === HOOK_HOST) names[HOOK_HOST] = PRIVATE;
      return answer;
    };
    return network;
  }

  const env = () => rig.env(KEY_A, { CATALOG_SYNC_WEBHOOK_HOSTS: HOOK_HOST });
  const origin = () => new URL(hookUrl).origin;
  const warnings = (stderr: string) => stderr.split('\n').filter((line) => line.includes('webhook not told'));

  it('run --job: not told, one log line naming the run and the origin, no connection there, the exit code unchanged', async () => {
    const network = rebinding();

    const result = await runCli(['run', '--job', jobPath], env(), '', { network });

    expect(result.code, result.stderr).toBe(0);
    expect(hook.posts).toEqual([]);
    expect(network.attempts.map((target) => target.address)).not.toContain(PRIVATE);
    const runId = runIdOf(result.stdout);
    const lines = warnings(result.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(runId);
    expect(lines[0]).toContain(origin());
    expect(lines[0]).toContain('a private address named by a job file');
    expect(lines[0]).toContain('--allow-private-source');
    expect(result.stderr).not.toContain('secret-token');
    expect((await rig.status(runId, env())).state).toBe('done');
  });

  it('run --job --allow-private-source: told', async () => {
    const result = await runCli(['run', '--job', jobPath, '--allow-private-source'], env(), '', {
      network: rebinding(),
    });

    expect(result.code, result.stderr).toBe(0);
    expect(hook.posts.map((post) => post.body.event)).toEqual(['ended']);
  });

  it('the same URL given with --notify on the command line: told, as before', async () => {
    const source = await rig.csv('other.csv', catalogRows(2));

    const result = await runCli(['run', source, '--notify', hookUrl], env(), '', { network: rebinding() });

    expect(result.code, result.stderr).toBe(0);
    expect(hook.posts.map((post) => post.body.event)).toEqual(['ended']);
  });

  /**
   * `import --job` (its own flags) queues the run; a worker (its own flags) serves it and tells the
   * hook, or refuses to: `told` says which the test waits for.
   */
  async function importThenServe(
    importArgs: string[],
    workerArgs: string[],
    told: boolean,
    beforeServing: (runId: string) => Promise<void> = async () => {},
  ): Promise<{ runId: string; stderr: string }> {
    const network = rebinding();
    const imported = await runCli(['import', '--job', jobPath, ...importArgs], env(), '', { network });
    expect(imported.code, imported.stderr).toBe(0);
    const runId = runIdOf(imported.stdout);
    await beforeServing(runId);
    const worker = startCli(['worker', '--concurrency', '2', ...workerArgs], env(), '', { network });
    const redis = new Redis(TEST_REDIS_URL);
    try {
      await runDone(rig, runId);
      // Claimed by the worker that met the end, just before it tells the hook or refuses to.
      const claim = new RedisKeys(rig.prefix).notified(runId, 'ended');
      await eventually('the end claimed', async () => ((await redis.exists(claim)) ? true : undefined));
      if (told) await eventually('the POST', () => (hook.posts.length > 0 ? true : undefined));
      else await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      await redis.quit();
      worker.interrupt();
    }
    const served = await worker.result;
    expect(served.code, served.stderr).toBe(0);
    expect(network.attempts.filter((target) => target.address === PRIVATE)).toHaveLength(told ? 1 : 0);
    return { runId, stderr: served.stderr };
  }

  it("a worker without --allow-private-source does not tell it, whatever the importing process's flags", async () => {
    const { runId, stderr } = await importThenServe(['--allow-private-source'], [], false);

    expect(hook.posts).toEqual([]);
    const lines = warnings(stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(runId);
    expect(lines[0]).toContain(origin());
    expect(lines[0]).toContain('a private address named by a job file');
    expect(stderr).not.toContain('secret-token');
  });

  it('a worker with --allow-private-source tells it', async () => {
    await importThenServe([], ['--allow-private-source'], true);

    expect(hook.posts.map((post) => post.body.event)).toEqual(['ended']);
  });

  it('a run queued by a version that did not record where its webhook came from: told, as before', async () => {
    const redis = new Redis(TEST_REDIS_URL);
    try {
      await importThenServe([], [], true, async (runId) => {
        const key = new RedisKeys(rig.prefix).run(runId);
        const spec = JSON.parse((await redis.hget(key, 'spec')) ?? 'null') as Record<string, unknown>;
        expect(spec.notify).toBe(hookUrl);
        delete spec.notifyFromJob;
        await redis.hset(key, 'spec', JSON.stringify(spec));
      });
    } finally {
      await redis.quit();
    }

    expect(hook.posts.map((post) => post.body.event)).toEqual(['ended']);
  });
});
