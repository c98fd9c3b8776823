import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEY_A, useFailureRig } from '../failures/support/rig.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { useWebhookReceiver } from '../support/webhook-receiver.js';

// What the `ended` event says of a run that did not end whole: cancelled, superseded, ended early.
// The webhook is on loopback (the receiver), the API the sandbox over HTTP, Redis real.

describe('--notify: a run that does not end whole', () => {
  const rig = useFailureRig();
  const hook = useWebhookReceiver();
  /** The environment of a process that reads the run's webhook back from Redis (`cancel`, a worker). */
  const hookEnv = () => rig.env(KEY_A, { CATALOG_SYNC_WEBHOOK_HOSTS: new URL(hook.url).host });

  it('cancelled: `ended` says cancelled and counts the skipped rows', async () => {
    const source = await rig.csv('catalog.csv', catalogRows(29));
    const imported = await rig.cli(['import', source, '--notify', hook.url]);
    expect(imported.code, imported.stderr).toBe(0);
    const runId = imported.stdout.trim();

    const cancelled = await rig.cli(['cancel', runId], hookEnv());

    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(hook.posts.map((post) => post.body.event)).toEqual(['ended']);
    const body = hook.posts[0]?.body ?? {};
    expect(body).toMatchObject({
      runId,
      state: 'cancelled',
      counts: { created: 0, updated: 0, failed: 0, skipped: 29, notTried: 0 },
    });
    expect(body.text).toBe(
      `catalog-sync run ${runId} cancelled: 0 created, 0 updated, 0 failed, 29 skipped (seller ${body.sellerRef})`,
    );
  });

  it('ended early: `ended` says so with the reason, not done, once every row read is settled', async () => {
    // Rows enough to be queued in chunks before the read meets a record over --max-record-bytes.
    const rows = catalogRows(3000).map((row) => `${row.sku},${row.name.replace(/[",]/g, ' ')},${row.price}`);
    const source = join(rig.dir, 'broken.csv');
    await writeFile(source, ['sku,name,price', ...rows, `SKU-99999,${'x'.repeat(4096)},1.00`, ''].join('\n'));

    const imported = await rig.cli(['import', source, '--max-record-bytes', '1024', '--notify', hook.url]);

    expect(imported.code).toBe(2);
    expect(hook.posts.map((post) => post.body.event)).toEqual(['ended']);
    const body = hook.posts[0]?.body ?? {};
    const runId = String(body.runId);
    const status = await rig.status(runId);
    expect(status.total).toBeGreaterThan(0);
    // The rows queued (no worker took them) and those read since the last chunk was queued are
    // settled by the import as it ends the run: not sent, failed. None is left untried.
    const counts = body.counts as { notTried: number; failed: number };
    expect(counts).toMatchObject({ notTried: 0, failed: status.total });
    expect(status).toMatchObject({ state: 'done', settled: status.total });
    expect(body).toMatchObject({ state: 'ended-early', counts: { created: 0, skipped: 0 } });
    // The line the user saw is the reason the hook hears.
    const why = imported.stderr.trim().replace(/^catalog-sync: /, '');
    expect(why).toContain('--max-record-bytes');
    expect(body.endedEarly).toBe(why);
    expect(body.text).toBe(
      `catalog-sync run ${runId} ended early (${why}): 0 created, 0 updated, ${counts.failed} failed (seller ${body.sellerRef})`,
    );
  });
});

describe('--notify: a run superseded by a newer read of its source', () => {
  const rig = useFailureRig(() => ({ dailyLimit: 5 }));
  const hook = useWebhookReceiver();

  it('`ended` says superseded, by which run, and counts the skipped rows', async () => {
    const source = await rig.csv('catalog.csv', catalogRows(20));
    const paused = await rig.cli(['run', source, '--no-wait', '--concurrency', '1', '--notify', hook.url]);
    expect(paused.code, paused.stderr).toBe(4);
    const earlier = runIdOf(paused.stderr);

    // The same file, changed: a new read of the same address supersedes the run waiting out the limit.
    await rig.csv('catalog.csv', catalogRows(21));
    const env = rig.env(KEY_A, { CATALOG_SYNC_WEBHOOK_HOSTS: new URL(hook.url).host });
    const imported = await rig.cli(['import', source], env);
    expect(imported.code, imported.stderr).toBe(0);
    const newer = imported.stdout.trim();

    const ended = hook.posts.filter((post) => post.body.event === 'ended');
    expect(ended).toHaveLength(1);
    const body = ended[0]?.body ?? {};
    expect(body).toMatchObject({ runId: earlier, state: 'cancelled', supersededBy: newer });
    const counts = body.counts as { created: number; skipped: number };
    expect(counts.skipped).toBeGreaterThan(0);
    expect(counts.created + counts.skipped).toBe(20);
    expect(body.text).toBe(
      `catalog-sync run ${earlier} superseded by run ${newer} (a newer read of the same source): ${counts.created} created, 0 updated, 0 failed, ${counts.skipped} skipped (seller ${body.sellerRef})`,
    );
  });
});
