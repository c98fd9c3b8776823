import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RedisKeys } from '../../src/runs/keys.js';
import { eventually, KEY_A, runDone, useFailureRig } from '../integration/failures/support/rig.js';
import { catalogRows } from '../integration/support/catalog.js';
import { runIdOf } from '../integration/support/cli.js';
import { TEST_REDIS_URL } from '../integration/support/redis-prefix.js';
import { useWebhookReceiver } from '../integration/support/webhook-receiver.js';

/**
 * Issue 32, item 4: whoever can write to Redis wrote a run's `notify` URL, and a worker POSTed to
 * it (an internal admin endpoint on loopback received the POST). A worker tells only a host its
 * own environment lists (CATALOG_SYNC_WEBHOOK_HOSTS). The forged hook here is a receiver on
 * 127.0.0.1, so even a wrong worker sends nothing off loopback.
 */
describe('a notify URL forged in Redis', () => {
  const rig = useFailureRig();
  const hook = useWebhookReceiver();
  let redis: Redis;
  beforeEach(() => {
    redis = new Redis(TEST_REDIS_URL);
  });
  afterEach(async () => {
    await redis.quit();
  });

  /** Imports a small run with no webhook, then writes one into its record as an attacker would. */
  async function importAndForge(): Promise<{ runId: string; forged: string }> {
    const imported = await rig.cli(['import', await rig.csv('catalog.csv', catalogRows(3))]);
    expect(imported.code).toBe(0);
    const runId = runIdOf(imported.stdout);
    const forged = `${new URL(hook.url).origin}/internal/admin/delete-all?confirm=yes`;
    const key = new RedisKeys(rig.prefix).run(runId);
    const spec = JSON.parse((await redis.hget(key, 'spec')) ?? 'null') as Record<string, unknown>;
    expect(spec).not.toBeNull();
    await redis.hset(key, 'spec', JSON.stringify({ ...spec, notify: forged }));
    return { runId, forged };
  }

  it("is not POSTed by a worker whose environment does not list its host: one log line, without the URL's path or query", async () => {
    const { runId } = await importAndForge();

    const worker = rig.spawn(['worker', '--concurrency', '2']);
    await runDone(rig, runId);
    // Told or refused: the worker has met the run's end either way.
    await eventually('the hook told or refused', () =>
      hook.posts.length > 0 || worker.stderr().includes('webhook not told') ? true : undefined,
    );

    expect(hook.posts.map((post) => post.path)).toEqual([]);
    const line =
      worker
        .stderr()
        .split('\n')
        .find((text) => text.includes('webhook not told')) ?? '';
    expect(line).toContain(new URL(hook.url).host);
    expect(line).toContain('CATALOG_SYNC_WEBHOOK_HOSTS');
    expect(worker.stderr()).not.toMatch(/delete-all|confirm=yes/);
  });

  it('is POSTed when the worker environment lists its host', async () => {
    const { runId, forged } = await importAndForge();

    rig.spawn(
      ['worker', '--concurrency', '2'],
      rig.env(KEY_A, { CATALOG_SYNC_WEBHOOK_HOSTS: new URL(forged).host }),
    );
    await runDone(rig, runId);

    const paths = await eventually('the POST', () =>
      hook.posts.length ? hook.posts.map((p) => p.path) : undefined,
    );
    expect(paths).toEqual(['/internal/admin/delete-all?confirm=yes']);
  });
});
