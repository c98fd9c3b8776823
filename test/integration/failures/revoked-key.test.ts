import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { sellerQueueName } from '../../../src/sellers/seller-ref.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { withRedis } from '../support/redis-prefix.js';
import { expectExactCatalog } from './support/exact-catalog.js';
import { eventually, type FailureRig, KEY_A, runDone, SELLER_A, useFailureRig } from './support/rig.js';

const ROWS = 200;
const CONCURRENCY = 2;
const NEW_KEY = 'sk_fail_a_rotated';

/** Whether the seller's BullMQ queue is paused, how many of its jobs wait, how many are under way. */
async function sellerQueue(
  rig: FailureRig,
  ref: string,
): Promise<{ paused: boolean; waiting: number; active: number }> {
  return withRedis(async (connection) => {
    const queue = new Queue(sellerQueueName(ref), { connection, prefix: rig.prefix });
    try {
      const { active = 0, ...counts } = await queue.getJobCounts('wait', 'prioritized', 'delayed', 'active');
      const waiting = Object.values(counts).reduce((sum, n) => sum + n, 0);
      return { paused: await queue.isPaused(), waiting, active };
    } finally {
      await queue.close();
    }
  });
}

/**
 * `run` with the key revoked once some rows are written. Resolves to the run and seller printed
 * in the exit-3 message, after checking that nothing settled was lost and the rest stays queued.
 */
async function runUntilTheKeyIsRevoked(rig: FailureRig): Promise<{ runId: string; ref: string }> {
  const source = await rig.csv('catalog.csv', catalogRows(ROWS));
  const running = rig.cli(['run', source, '--concurrency', String(CONCURRENCY)]);
  await eventually(
    '30 products written',
    () => (rig.sandbox.stats().writesApplied >= 30 ? true : undefined),
    { intervalMs: 5 },
  );
  rig.sandbox.revokeKey(KEY_A);
  const result = await running;

  expect(result.code).toBe(3);
  const ref = /catalog-sync resume --seller (\S+)/.exec(result.stderr)?.[1];
  expect(ref, `the resume command in: ${result.stderr}`).toBeDefined();
  expect(rig.sandbox.stats().byStatus['401'], 'requests answered 401').toBeLessThanOrEqual(2 * CONCURRENCY);
  const runId = runIdOf(result.stderr);
  const status = await rig.status(runId);
  expect(status.state).not.toBe('done');
  expect(status.seller.authRejected).toBe(true);
  expect(status.settled).toBeLessThan(ROWS);
  const queue = await sellerQueue(rig, ref!);
  expect(queue.paused, "the seller's queue is paused").toBe(true);
  expect(queue.waiting, 'jobs still queued').toBeGreaterThan(0);
  return { runId, ref: ref! };
}

describe('when the API key is revoked in the middle of a run', () => {
  const rig = useFailureRig(() => ({ latencyMs: 5 }));

  it('exits 3 within a few requests, keeps the rest queued, and after the same key is restored, resume and a worker finish the run exactly', {
    timeout: 60_000,
  }, async () => {
    const { runId, ref } = await runUntilTheKeyIsRevoked(rig);

    rig.sandbox.addKey(KEY_A, SELLER_A);
    const resumed = await rig.cli(['resume', '--seller', ref]);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain(`seller ${ref}: resumed`);
    rig.spawn(['worker', '--concurrency', '4']);
    const done = await runDone(rig, runId);

    expect(done.counts).toMatchObject({ failed: 0, invalid: 0 });
    expectExactCatalog(rig.sandbox.products(SELLER_A), catalogRows(ROWS));
  });

  it('is finished with a new key for the same seller: resume links it, and a worker with the new key ends the run exactly', {
    timeout: 60_000,
  }, async () => {
    const { runId, ref } = await runUntilTheKeyIsRevoked(rig);

    rig.sandbox.addKey(NEW_KEY, SELLER_A);
    const resumed = await rig.cli(['resume', '--seller', ref], rig.env(NEW_KEY));
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain(`seller ${ref}: resumed`);
    const worker = rig.spawn(['worker', '--concurrency', '4'], rig.env(NEW_KEY));
    const done = await runDone(rig, runId, 20_000).catch((error: Error) => {
      throw new Error(`${error.message}; worker stderr: ${worker.stderr().trim()}`);
    });

    expect(done.counts).toMatchObject({ failed: 0, invalid: 0 });
    expectExactCatalog(rig.sandbox.products(SELLER_A), catalogRows(ROWS));
  });
});

describe('when a running `worker` met the 401, and the same key is accepted again', () => {
  const rig = useFailureRig(() => ({ latencyMs: 5 }));

  it('`resume` in another process lets that same worker finish the run exactly, without a restart or another 401', {
    timeout: 60_000,
  }, async () => {
    const rows = catalogRows(ROWS);
    const imported = await rig.cli(['import', await rig.csv('catalog.csv', rows)]);
    expect(imported.code).toBe(0);
    const runId = runIdOf(imported.stdout);
    const worker = rig.spawn(['worker', '--concurrency', String(CONCURRENCY)]);
    await eventually(
      '30 products written',
      () => (rig.sandbox.stats().writesApplied >= 30 ? true : undefined),
      { intervalMs: 5 },
    );
    rig.sandbox.revokeKey(KEY_A);
    const { sellerRef: ref } = await eventually('the seller marked key rejected', async () => {
      const status = await rig.status(runId);
      return status.seller.authRejected ? status : undefined;
    });
    // Every chunk the worker had under way is back in the paused queue: none is left to mark it.
    await eventually('the queue paused, no chunk under way', async () => {
      const queue = await sellerQueue(rig, ref);
      return queue.paused && queue.active === 0 && queue.waiting > 0 ? true : undefined;
    });
    const rejections = rig.sandbox.stats().byStatus['401'];

    rig.sandbox.addKey(KEY_A, SELLER_A);
    const resumed = await rig.cli(['resume', '--seller', ref]);
    expect(resumed.stdout).toContain(`seller ${ref}: resumed`);
    const logged = worker.stderr().length;
    const done = await runDone(rig, runId, 20_000).catch((error: Error) => {
      throw new Error(`${error.message}; worker stderr: ${worker.stderr().slice(logged).trim()}`);
    });

    expect(worker.stderr().slice(logged)).not.toContain('rejected (401)');
    expect(rig.sandbox.stats().byStatus['401'], 'requests answered 401').toBe(rejections);
    expect(done.counts).toMatchObject({ failed: 0, invalid: 0 });
    expectExactCatalog(rig.sandbox.products(SELLER_A), rows);
  });
});

describe('when the API key is already revoked as the run starts', () => {
  const rig = useFailureRig();

  it('exits 3 after a request or two, writes nothing, and keeps every row queued', async () => {
    rig.sandbox.revokeKey(KEY_A);
    const source = await rig.csv('catalog.csv', catalogRows(50));

    const result = await rig.cli(['run', source, '--concurrency', String(CONCURRENCY)]);

    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/the API key was rejected \(401\)/);
    expect(result.stderr).not.toContain(KEY_A);
    expect(rig.sandbox.stats().total).toBeLessThanOrEqual(CONCURRENCY);
    expect(rig.sandbox.stats().writesApplied).toBe(0);
    const status = await rig.status(runIdOf(result.stderr));
    expect(status).toMatchObject({ state: expect.not.stringMatching(/^done$/), settled: 0 });
  });
});

describe('when the next `run` comes after the key was fixed, with nobody running `resume`', () => {
  const rig = useFailureRig(() => ({ latencyMs: 5 }));

  it('checks the key, lifts the pause itself, and syncs the new catalog exactly', {
    timeout: 60_000,
  }, async () => {
    const { ref } = await runUntilTheKeyIsRevoked(rig);
    rig.sandbox.addKey(KEY_A, SELLER_A);
    const next = catalogRows(ROWS + 20);
    const source = await rig.csv('next-night.csv', next);

    const result = await rig.cli(['run', source, '--concurrency', String(CONCURRENCY)]);

    expect(result.stderr).toContain(`seller ${ref} resumed`);
    expect(result.code).toBe(0);
    expectExactCatalog(rig.sandbox.products(SELLER_A), next);
  });

  it('stays paused and exits 3 at once while the key is still rejected, spending one ping at most', async () => {
    await runUntilTheKeyIsRevoked(rig);
    const before = rig.sandbox.stats().total;
    const source = await rig.csv('next-night.csv', catalogRows(10));

    const result = await rig.cli(['run', source]);

    expect(result.code).toBe(3);
    expect(rig.sandbox.stats().total - before).toBeLessThanOrEqual(1);
  });
});
