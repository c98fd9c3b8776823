import { describe, expect, it, vi } from 'vitest';
import { RedisKeys } from '../../../src/runs/keys.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { withRedis } from '../support/redis-prefix.js';
import { expectExactCatalog } from './support/exact-catalog.js';
import { runDone, SELLER_A, useFailureRig } from './support/rig.js';

const ROWS = 250;

/**
 * The process that had begun to end a run was killed: its claim stays in the run's record. Before
 * leases, the run stayed `running` for good, and every later `run` of its source waited for it.
 */
describe('when the process ending a run is killed half way', () => {
  const rig = useFailureRig();

  it('its claim runs out, and the run ends with the worker that takes its last chunk', async () => {
    const rows = catalogRows(ROWS);
    const imported = await rig.cli(['import', await rig.csv('catalog.csv', rows)]);
    expect(imported.code, imported.stderr).toBe(0);
    const runId = runIdOf(imported.stdout);
    // What the killed finaliser left: a lease it can no longer renew, run out since.
    await withRedis((redis) =>
      redis.hset(
        new RedisKeys(rig.prefix).run(runId),
        'finalising',
        `lease:${Date.now() - 1}:killed-process`,
      ),
    );

    const worker = rig.spawn(['worker']);
    const done = await runDone(rig, runId).catch((error: Error) => {
      throw new Error(`${error.message}; worker stderr: ${worker.stderr().trim()}`);
    });

    expect(done.counts).toMatchObject({ created: ROWS, failed: 0 });
    expectExactCatalog(rig.sandbox.products(SELLER_A), rows);
    // The worker's claim is marked done once its end step returns, a moment after the record says
    // `done` (queue/finalise.ts): waited for, not read at once (a race on a busy machine).
    await vi.waitFor(
      async () => {
        const claim = await withRedis((redis) =>
          redis.hget(new RedisKeys(rig.prefix).run(runId), 'finalising'),
        );
        expect(claim === null || claim === 'done', `finalising: ${claim}`).toBe(true);
      },
      { timeout: 15_000, interval: 100 },
    );
  });
});
