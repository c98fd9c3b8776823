import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { eventually, KEY_A, runDone, useFailureRig } from '../failures/support/rig.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { freePort } from '../support/own-redis.js';
import { useWebhookReceiver } from '../support/webhook-receiver.js';

// Belt and braces for the refused webhook addresses: whatever the code does, no request leaves
// loopback and no real DNS is asked (the CLI runs in this process, so these mocks reach it).
vi.mock('node:http', async (original) =>
  (await import('../../hostile/network-guard.js')).guardedHttp(original),
);
vi.mock('node:https', async (original) =>
  (await import('../../hostile/network-guard.js')).guardedHttp(original),
);
vi.mock('node:dns', async (original) =>
  (await import('../../hostile/network-guard.js')).guardedDnsLookup(original),
);
vi.mock('node:dns/promises', async (original) =>
  (await import('../../hostile/network-guard.js')).guardedDns(original),
);
vi.mock('node:net', async (original) =>
  (await import('../../hostile/network-guard.js')).guardedNet(original),
);
vi.mock('node:tls', async (original) =>
  (await import('../../hostile/network-guard.js')).guardedTls(original),
);

/** The warning lines a run logged about its webhook (pino JSON on stderr). */
function webhookWarnings(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.includes('webhook not told'));
}

describe('--notify: a run that ends', () => {
  const rig = useFailureRig();
  const hook = useWebhookReceiver();

  it('POSTs one JSON summary with counts and a Slack text line, and neither the key nor the hook path reaches the logs', async () => {
    const rows = [...catalogRows(3), { sku: 'BAD-1', name: 'no price', price: 'abc' }];
    const source = await rig.csv('catalog.csv', rows);

    const result = await rig.cli(['run', source, '--notify', hook.url]);

    expect(result.code).toBe(1);
    expect(hook.posts).toHaveLength(1);
    const [post] = hook.posts;
    expect(post?.path).toBe('/hooks/T000/secret-token');
    expect(post?.headers['content-type']).toBe('application/json');
    const runId = runIdOf(result.stdout);
    expect(post?.body).toMatchObject({
      event: 'ended',
      runId,
      state: 'done',
      source,
      counts: { created: 3, updated: 0, unchanged: 0, invalid: 1, failed: 0, skipped: 0, held: 0 },
    });
    const ref = String(post?.body.sellerRef);
    expect(ref).toMatch(/^[0-9a-f]+$/);
    expect(post?.body.text).toBe(
      `catalog-sync run ${runId} done: 3 created, 0 updated, 1 invalid, 0 failed (seller ${ref})`,
    );
    expect(post?.raw).not.toContain(KEY_A);
    expect(post?.headers.authorization).toBeUndefined();
    expect(result.stderr).not.toContain('secret-token');
    const status = await rig.status(runId);
    expect((status as unknown as { notify: string }).notify).toBe(new URL(hook.url).origin);
  });

  it('counts and tells the deactivations of --missing', async () => {
    const rows = catalogRows(4).map((row) => ({ ...row, stock_level: '5' }));
    expect((await rig.cli(['run', await rig.csv('catalog.csv', rows)])).code).toBe(0);

    const args = ['--missing', 'stock_level=0', '--max-missing', '1', '--notify', hook.url];
    const result = await rig.cli(['run', await rig.csv('three.csv', rows.slice(0, 3)), ...args]);

    expect(result.code).toBe(0);
    const runId = runIdOf(result.stdout);
    expect(hook.posts[0]?.body).toMatchObject({ event: 'ended', counts: { deactivated: 1, notApplied: 0 } });
    expect(hook.posts[0]?.body.text).toBe(
      `catalog-sync run ${runId} done: 0 created, 0 updated, 0 failed, 1 deactivated (seller ${hook.posts[0]?.body.sellerRef})`,
    );
  });

  it('POSTs `held` with the reason when a guard holds the run (and not `ended`)', async () => {
    const rows = catalogRows(4);
    expect((await rig.cli(['run', await rig.csv('catalog.csv', rows)])).code).toBe(0);
    const cut = rows.map((row) => ({ ...row, price: String(Number(row.price) / 100 + 0.01) }));

    const result = await rig.cli([
      'run',
      await rig.csv('cut.csv', cut),
      '--max-updates',
      '1',
      '--notify',
      hook.url,
    ]);

    expect(result.code).toBe(5);
    expect(hook.posts.map((post) => post.body.event)).toEqual(['held']);
    expect(hook.posts[0]?.body).toMatchObject({ state: 'held', runId: runIdOf(result.stdout) });
    expect(String(hook.posts[0]?.body.heldReason)).toContain('--max-updates 1');
  });

  it('POSTs `held` of a run --max-missing holds with its held deactivations counted', async () => {
    const rows = catalogRows(4).map((row) => ({ ...row, stock_level: '5' }));
    expect((await rig.cli(['run', await rig.csv('catalog.csv', rows)])).code).toBe(0);

    const args = ['--missing', 'stock_level=0', '--max-missing', '1', '--notify', hook.url];
    const result = await rig.cli(['run', await rig.csv('one.csv', rows.slice(0, 1)), ...args]);

    expect(result.code).toBe(5);
    expect(hook.posts.map((post) => post.body.event)).toEqual(['held']);
    expect(hook.posts[0]?.body).toMatchObject({
      state: 'held',
      counts: { held: 0, deactivated: 0, deactivateHeld: 3 },
    });
    expect(String(hook.posts[0]?.body.heldReason)).toContain('--max-missing 1');
  });

  it('tries again after a 500 and is told once the hook answers 200', async () => {
    hook.answers = [500, 200];
    const source = await rig.csv('catalog.csv', catalogRows(2));

    const result = await rig.cli(['run', source, '--notify', hook.url]);

    expect(result.code).toBe(0);
    expect(hook.posts.map((post) => post.body.event)).toEqual(['ended', 'ended']);
    expect(webhookWarnings(result.stderr)).toEqual([]);
  });

  it('a hook that always answers 500 leaves the run as it would be, with one warning naming only its origin', async () => {
    hook.answers = [500];
    const source = await rig.csv('catalog.csv', catalogRows(2));

    const result = await rig.cli(['run', source, '--notify', hook.url]);

    expect(result.code).toBe(0);
    expect(hook.posts.length).toBe(3);
    const warnings = webhookWarnings(result.stderr);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(new URL(hook.url).origin);
    expect(warnings[0]).toContain('answered 500');
    expect(result.stderr).not.toContain('secret-token');
  });

  it('refuses a --notify that is not an http(s) URL: one line, exit 2, nothing sent', async () => {
    const source = await rig.csv('catalog.csv', catalogRows(1));
    for (const bad of ['ftp://hooks.example.com/x', 'not a url']) {
      const result = await rig.cli(['run', source, '--notify', bad]);
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toContain('--notify takes an http(s) URL');
    }
    expect(rig.sandbox.stats().total).toBe(0);
  });

  it("refuses a job file's webhook on a link-local address (the address rule of sources), before any request", async () => {
    const source = await rig.csv('catalog.csv', catalogRows(1));
    const job = join(rig.dir, 'jobs', 'nightly.yml');
    await mkdir(join(rig.dir, 'jobs'));
    await writeFile(job, `source: ${source}\nnotify: http://169.254.169.254/latest/hook\n`);

    // Its host listed by the operator, the address policy still refuses it.
    const result = await rig.cli(
      ['run', '--job', job],
      rig.env(KEY_A, { CATALOG_SYNC_WEBHOOK_HOSTS: '169.254.169.254' }),
    );

    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(
      'catalog-sync: nightly.yml: notify: http://169.254.169.254 leads to a cloud metadata address: refused; --allow-private-source allows it',
    );
    expect(rig.sandbox.stats().total).toBe(0);
  });
});

describe('notify: in a job file', () => {
  const rig = useFailureRig();
  const hook = useWebhookReceiver();

  it("on loopback, is refused as a job file's loopback feed is: one line, exit 2, nothing sent", async () => {
    const source = await rig.csv('catalog.csv', catalogRows(2));
    await mkdir(join(rig.dir, 'jobs'));
    const job = join(rig.dir, 'jobs', 'nightly.yml');
    await writeFile(job, `source: ${source}\nnotify: ${hook.url}\n`);

    const result = await rig.cli(
      ['run', '--job', job],
      rig.env(KEY_A, { CATALOG_SYNC_WEBHOOK_HOSTS: new URL(hook.url).host }),
    );

    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(
      `catalog-sync: nightly.yml: notify: ${new URL(hook.url).origin} leads to a loopback address named by a job file: refused; --allow-private-source allows it`,
    );
    expect(hook.posts).toEqual([]);
    expect(rig.sandbox.stats().total).toBe(0);
  });

  it('is told like --notify when CATALOG_SYNC_WEBHOOK_HOSTS lists its host and the operator allows its address', async () => {
    const source = await rig.csv('catalog.csv', catalogRows(2));
    await mkdir(join(rig.dir, 'jobs'));
    const job = join(rig.dir, 'jobs', 'nightly.yml');
    await writeFile(job, `source: ${source}\nnotify: ${hook.url}\n`);

    // The hook is on loopback: a job file's choice, so it takes the operator's flag.
    const result = await rig.cli(
      ['run', '--job', job, '--allow-private-source'],
      rig.env(KEY_A, { CATALOG_SYNC_WEBHOOK_HOSTS: new URL(hook.url).host }),
    );

    expect(result.code).toBe(0);
    expect(hook.posts.map((post) => post.body.event)).toEqual(['ended']);
  });

  it('is refused when the environment does not list its host: one line, exit 2, nothing sent', async () => {
    const source = await rig.csv('catalog.csv', catalogRows(2));
    await mkdir(join(rig.dir, 'jobs'));
    const job = join(rig.dir, 'jobs', 'nightly.yml');
    await writeFile(job, `source: ${source}\nnotify: ${hook.url}?token=t0p\n`);

    const result = await rig.cli(['run', '--job', job]);

    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(
      `catalog-sync: nightly.yml: notify: the host of ${new URL(hook.url).origin} is not allowed: a job file's webhook ` +
        'must be on a host listed in CATALOG_SYNC_WEBHOOK_HOSTS (a comma list, in the environment), or given with --notify',
    );
    expect(hook.posts).toEqual([]);
    expect(rig.sandbox.stats().total).toBe(0);
  });
});

describe('--notify: a run paused on the daily limit', () => {
  // An hour's day: with a minute's, a test that ran across its end (one in a few dozen) read the
  // next day's pause from `status`. Nothing here waits for the reset.
  const rig = useFailureRig(() => ({ dailyLimit: 5, dayLengthMs: 3_600_000 }));
  const hook = useWebhookReceiver();

  it('POSTs one `paused` event with the time the pause lifts', async () => {
    const source = await rig.csv('catalog.csv', catalogRows(20));

    const result = await rig.cli(['run', source, '--no-wait', '--concurrency', '2', '--notify', hook.url]);

    expect(result.code).toBe(4);
    await eventually('the paused POST', () => (hook.posts.length > 0 ? true : undefined));
    expect(hook.posts).toHaveLength(1);
    const body = hook.posts[0]?.body ?? {};
    expect(body).toMatchObject({ event: 'paused', runId: runIdOf(result.stderr) });
    const resumesAt = Date.parse(String(body.resumesAt));
    const status = await rig.status(runIdOf(result.stderr));
    expect(resumesAt).toBe(status.seller.pausedUntil);
    expect(String(body.text)).toContain(`paused on the daily limit until ${body.resumesAt}`);
  });
});

describe('--notify: a rejected key', () => {
  const rig = useFailureRig();
  const hook = useWebhookReceiver();

  it('POSTs one `key-rejected` event', async () => {
    const source = await rig.csv('catalog.csv', catalogRows(5));

    const result = await rig.cli(['run', source, '--notify', hook.url], rig.env('sk_not_a_key'));

    expect(result.code).toBe(3);
    expect(hook.posts.map((post) => post.body.event)).toEqual(['key-rejected']);
    expect(String(hook.posts[0]?.body.text)).toContain('the API key was rejected (401)');
    expect(hook.posts[0]?.raw).not.toContain('sk_not_a_key');
  });
});

describe('--notify: an API out of reach', () => {
  const rig = useFailureRig();
  const hook = useWebhookReceiver();

  it('POSTs one `api-unreachable` event naming the base URL', async () => {
    const baseUrl = `http://127.0.0.1:${await freePort()}/api/v1`;
    const source = await rig.csv('catalog.csv', catalogRows(5));

    const result = await rig.cli(
      ['run', source, '--notify', hook.url],
      rig.env(KEY_A, { SELLER_API_BASE_URL: baseUrl }),
    );

    expect(result.code).toBe(6);
    expect(hook.posts.map((post) => post.body.event)).toEqual(['api-unreachable']);
    expect(String(hook.posts[0]?.body.text)).toContain(`paused: cannot reach ${baseUrl}`);
  });
});

describe('--notify against an API that accepts a stock update and keeps the old stock', () => {
  const rig = useFailureRig(() => ({ ignoreOnUpdate: ['stock_level'] }));
  const hook = useWebhookReceiver();

  it('counts the rows accepted but not applied and says so in the text line', async () => {
    const rows = catalogRows(3).map((row) => ({ ...row, stock_level: '5' }));
    expect((await rig.cli(['run', await rig.csv('catalog.csv', rows)])).code).toBe(0);
    const zero = rows.map((row) => ({ ...row, stock_level: '0' }));

    const result = await rig.cli(['run', await rig.csv('zero.csv', zero), '--notify', hook.url]);

    expect(result.code).toBe(0);
    const runId = runIdOf(result.stdout);
    expect(hook.posts[0]?.body).toMatchObject({ counts: { updated: 3, notApplied: 3, deactivated: 0 } });
    expect(hook.posts[0]?.body.text).toBe(
      `catalog-sync run ${runId} done: 0 created, 3 updated, 0 failed, 3 accepted but not applied (seller ${hook.posts[0]?.body.sellerRef})`,
    );
  });
});

describe('--notify with two workers', () => {
  const rig = useFailureRig(() => ({ latencyMs: 5 }));
  const hook = useWebhookReceiver();

  it('the run end is told exactly once', { timeout: 60_000 }, async () => {
    const source = await rig.csv('catalog.csv', catalogRows(60));
    const imported = await rig.cli(['import', source, '--notify', hook.url]);
    expect(imported.code).toBe(0);
    const runId = imported.stdout.trim();

    // The hook is read back from Redis: the workers' own environment must allow its host.
    const workerEnv = rig.env(KEY_A, { CATALOG_SYNC_WEBHOOK_HOSTS: new URL(hook.url).host });
    const workers = [
      rig.spawn(['worker', '--concurrency', '2'], workerEnv),
      rig.spawn(['worker', '--concurrency', '2'], workerEnv),
    ];
    await runDone(rig, runId);
    // Stopped gracefully: whatever either worker was still doing is over when they have exited.
    for (const worker of workers) worker.process.kill('SIGTERM');
    await Promise.all(workers.map((worker) => worker.exited));

    expect(hook.posts.map((post) => post.body.event)).toEqual(['ended']);
    expect(hook.posts[0]?.body).toMatchObject({ runId, counts: { created: 60 } });
  });
});
