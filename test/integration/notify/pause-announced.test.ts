import { describe, expect, it } from 'vitest';
import { eventually, KEY_A, useFailureRig } from '../failures/support/rig.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { useWebhookReceiver } from '../support/webhook-receiver.js';

// A run that waits on a pause another run met is told of it too, once.

describe('--notify: a run that starts while its seller is paused on the daily limit', () => {
  const rig = useFailureRig(() => ({ dailyLimit: 5 }));
  const hook = useWebhookReceiver();

  it('POSTs its own `paused` event, once, with the time the pause lifts', async () => {
    const first = await rig.cli([
      'run',
      await rig.csv('first.csv', catalogRows(20)),
      '--no-wait',
      '--concurrency',
      '1',
      '--notify',
      hook.url,
    ]);
    expect(first.code, first.stderr).toBe(4);
    const firstRun = runIdOf(first.stderr);
    await eventually('the first run told', () => (hook.posts.length > 0 ? true : undefined));

    const second = await rig.cli([
      'run',
      await rig.csv('second.csv', catalogRows(10, 100)),
      '--no-wait',
      '--notify',
      hook.url,
    ]);

    expect(second.code, second.stderr).toBe(4);
    const secondRun = runIdOf(second.stderr);
    expect(secondRun).not.toBe(firstRun);
    const told = hook.posts.map((post) => [post.body.event, post.body.runId]);
    expect(told).toEqual([
      ['paused', firstRun],
      ['paused', secondRun],
    ]);
    const status = await rig.status(secondRun);
    expect(Date.parse(String(hook.posts[1]?.body.resumesAt))).toBe(status.seller.pausedUntil);
  });
});

describe('--notify: runs queued when their seller is paused on the daily limit', () => {
  const rig = useFailureRig(() => ({ dailyLimit: 5 }));
  const hook = useWebhookReceiver();

  it('each hears the pause once, however many workers and chunks meet it', { timeout: 60_000 }, async () => {
    const runIds: string[] = [];
    for (const [name, first] of [
      ['a.csv', 1],
      ['b.csv', 1000],
    ] as const) {
      const source = await rig.csv(name, catalogRows(250, first));
      const imported = await rig.cli(['import', source, '--notify', hook.url]);
      expect(imported.code, imported.stderr).toBe(0);
      runIds.push(imported.stdout.trim());
    }
    expect(hook.posts).toEqual([]);

    // The hook is read back from Redis: the workers' own environment must allow its host.
    const workerEnv = rig.env(KEY_A, { CATALOG_SYNC_WEBHOOK_HOSTS: new URL(hook.url).host });
    const workers = [
      rig.spawn(['worker', '--concurrency', '2'], workerEnv),
      rig.spawn(['worker', '--concurrency', '2'], workerEnv),
    ];
    await eventually('both runs told', () => (hook.posts.length >= 2 ? true : undefined));
    // Stopped gracefully: whatever either worker was still doing is over when they have exited.
    for (const worker of workers) worker.process.kill('SIGTERM');
    await Promise.all(workers.map((worker) => worker.exited));

    const told = hook.posts.map((post) => [post.body.event, post.body.runId]);
    expect(told.sort()).toEqual(runIds.map((id) => ['paused', id]).sort());
    expect(new Set(hook.posts.map((post) => post.body.resumesAt)).size).toBe(1);
  });
});

describe('--notify: a run that starts while its key is rejected', () => {
  const rig = useFailureRig();
  const hook = useWebhookReceiver();

  it('POSTs its own `key-rejected` event', async () => {
    const bad = rig.env('sk_not_a_key');
    const first = await rig.cli(
      ['run', await rig.csv('first.csv', catalogRows(3)), '--notify', hook.url],
      bad,
    );
    expect(first.code, first.stderr).toBe(3);

    const imported = await rig.cli(
      ['import', await rig.csv('second.csv', catalogRows(3, 100)), '--notify', hook.url],
      bad,
    );

    expect(imported.code, imported.stderr).toBe(0);
    expect(hook.posts.map((post) => [post.body.event, post.body.runId])).toEqual([
      ['key-rejected', runIdOf(first.stderr)],
      ['key-rejected', imported.stdout.trim()],
    ]);
  });
});
