import { describe, expect, it } from 'vitest';
import { useFailureRig } from '../failures/support/rig.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { useWebhookReceiver } from '../support/webhook-receiver.js';

// A `run --notify URL` of a source whose run is already queued (or under way) is not queued again:
// it waits for that run and reports it. Its own webhook hears that run's end from it, not nothing.
// The webhook on loopback, the sandbox over HTTP, Redis real.

/** The events the hook heard, as [event, runId]. */
function told(posts: Array<{ body: Record<string, unknown> }>): string[][] {
  return posts.map((post) => [String(post.body.event), String(post.body.runId)]);
}

describe('--notify of a run that joins the queued run of its source', () => {
  const rig = useFailureRig();
  const hook = useWebhookReceiver();

  it('tells its own webhook the end of the run it waited for', async () => {
    const source = await rig.csv('catalog.csv', catalogRows(5));
    const imported = await rig.cli(['import', source]);
    expect(imported.code, imported.stderr).toBe(0);
    const queued = imported.stdout.trim();

    const result = await rig.cli(['run', source, '--notify', hook.url]);

    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('this source is already queued: waiting for that run');
    expect(runIdOf(result.stdout)).toBe(queued);
    expect(told(hook.posts)).toEqual([['ended', queued]]);
    const body = hook.posts[0]?.body ?? {};
    expect(body).toMatchObject({ state: 'done', counts: { created: 5, failed: 0 } });
    expect(body.text).toBe(
      `catalog-sync run ${queued} done: 5 created, 0 updated, 0 failed (seller ${body.sellerRef})`,
    );
  });

  it('is not told twice when the queued run has the same webhook', async () => {
    const source = await rig.csv('catalog.csv', catalogRows(5));
    const imported = await rig.cli(['import', source, '--notify', hook.url]);
    expect(imported.code, imported.stderr).toBe(0);

    const result = await rig.cli(['run', source, '--notify', hook.url]);

    expect(result.code, result.stderr).toBe(0);
    expect(told(hook.posts)).toEqual([['ended', imported.stdout.trim()]]);
  });
});

describe('import --notify of a source whose run is queued already', () => {
  const rig = useFailureRig();
  const hook = useWebhookReceiver();

  it('says in one line that its webhook is not told (nothing waits for that run)', async () => {
    const source = await rig.csv('catalog.csv', catalogRows(3));
    const first = await rig.cli(['import', source]);
    expect(first.code, first.stderr).toBe(0);
    const queued = first.stdout.trim();

    const again = await rig.cli(['import', source, '--notify', hook.url]);

    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.trim()).toBe(queued);
    const lines = again.stderr.split('\n').filter((line) => line.includes('--notify'));
    expect(lines).toEqual([
      `catalog-sync: --notify ${new URL(hook.url).origin} is not told of run ${queued}: only the webhook ` +
        'that run was queued with is (`catalog-sync run` of the source waits for it and tells its own)',
    ]);
  });
});

describe('--notify of a run that joins the run its seller waits out the daily limit for', () => {
  // Days of 5 s: 17 rows take 18 requests, 5 a day. The first run meets the limit with 5 to 9 of them
  // sent (its requests may straddle a reset), so the run that joins waits through at least two
  // resets, and its seller meets the limit again while it waits.
  const rig = useFailureRig(() => ({ dailyLimit: 5, dayLengthMs: 5_000 }));
  const hook = useWebhookReceiver();

  it('tells its own webhook the pause it joins, the pause that begins as it waits, and the end', {
    timeout: 60_000,
  }, async () => {
    const source = await rig.csv('catalog.csv', catalogRows(17));
    const first = await rig.cli(['run', source, '--no-wait', '--concurrency', '1']);
    expect(first.code, first.stderr).toBe(4);
    const paused = runIdOf(first.stderr);

    const result = await rig.cli(['run', source, '--concurrency', '1', '--notify', hook.url]);

    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('this source is already queued: waiting for that run');
    const events = told(hook.posts);
    expect(events[0]).toEqual(['paused', paused]);
    expect(events.filter(([event]) => event === 'ended')).toEqual([['ended', paused]]);
    expect(events.at(-1)).toEqual(['ended', paused]);
    expect(hook.posts.at(-1)?.body).toMatchObject({ state: 'done', counts: { created: 17 } });
    // The pause it joins, then at least one that begins as it waits: each told once, with its own reset.
    const pauses = hook.posts
      .filter((post) => post.body.event === 'paused')
      .map((post) => post.body.resumesAt);
    expect(pauses.length).toBeGreaterThanOrEqual(2);
    expect(new Set(pauses).size).toBe(pauses.length);
  });
});

describe('--notify of a --no-wait run that joins the run its seller waits out the daily limit for', () => {
  // An hour's day: nothing here waits for the reset.
  const rig = useFailureRig(() => ({ dailyLimit: 5, dayLengthMs: 3_600_000 }));
  const hook = useWebhookReceiver();

  it('tells its own webhook the pause, and says in one line that it will not hear the end', async () => {
    const source = await rig.csv('catalog.csv', catalogRows(12));
    const first = await rig.cli(['run', source, '--no-wait', '--concurrency', '1']);
    expect(first.code, first.stderr).toBe(4);
    const paused = runIdOf(first.stderr);

    const result = await rig.cli(['run', source, '--no-wait', '--notify', hook.url]);

    expect(result.code, result.stderr).toBe(4);
    expect(told(hook.posts)).toEqual([['paused', paused]]);
    expect(result.stderr).toContain(
      `catalog-sync: --notify ${new URL(hook.url).origin} is not told when run ${paused} ends: ` +
        "this run was not queued (its source's run was) and stops waiting for that one now\n",
    );
  });
});
