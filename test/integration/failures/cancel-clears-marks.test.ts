import { describe, expect, it } from 'vitest';
import type { SellerView } from '../../../src/dashboard/views.js';
import { useDashboards } from '../dashboard/support.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { freePort } from '../support/own-redis.js';
import { KEY_A, useFailureRig } from './support/rig.js';

const TYPO = 'sk_fail_a_typo';

/**
 * A mistyped key or base URL leaves a queued run and a seller marked `key rejected` or `cannot
 * reach`: the hint names `cancel`, and a cancelled run takes the mark with it unless another run
 * of the seller is still queued.
 */
describe('`cancel` after a mistake', () => {
  const rig = useFailureRig();
  const openDashboard = useDashboards();

  /** The seller of `ref` as the dashboard's JSON shows it. */
  async function dashboardSeller(env: NodeJS.ProcessEnv, ref: string): Promise<SellerView | undefined> {
    const dashboard = await openDashboard(env);
    try {
      const body = (await (await fetch(`${dashboard.url}api/sellers`)).json()) as { sellers: SellerView[] };
      return body.sellers.find((seller) => seller.ref === ref);
    } finally {
      await dashboard.stop();
    }
  }

  it('a mistyped key: exit 3 names `cancel`; after it the seller is not shown key rejected, nothing of it waits, and its next run is not held', {
    timeout: 60_000,
  }, async () => {
    const env = rig.env(TYPO);
    const source = await rig.csv('catalog.csv', catalogRows(5));
    const typo = await rig.cli(['run', source], env);
    expect(typo.code).toBe(3);
    const runId = runIdOf(typo.stderr);
    expect(typo.stderr).toContain(`catalog-sync cancel ${runId}`);
    const ref = (await rig.status(runId, env)).sellerRef;
    expect(await dashboardSeller(env, ref)).toMatchObject({ state: 'key-rejected', queue: { waiting: 1 } });

    const cancelled = await rig.cli(['cancel', runId], env);

    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stdout).toContain(
      `seller ${ref}: nothing of it is queued any more; no longer paused for its rejected key (401)`,
    );
    expect((await rig.status(runId, env)).seller.authRejected).toBe(false);
    expect(await dashboardSeller(env, ref)).toMatchObject({
      state: 'active',
      stateText: 'active',
      queue: { waiting: 0 },
    });
    // The queue the 401 paused is served again: once the key works, a run of it goes through.
    rig.sandbox.addKey(TYPO, 'seller-typo');
    const next = await rig.cli(['run', source], env);
    expect(next.code, next.stderr).toBe(0);
  });

  it('keeps the mark while another run of the seller is queued, and lifts it with the last', {
    timeout: 60_000,
  }, async () => {
    const env = rig.env(TYPO);
    const first = await rig.cli(['run', await rig.csv('one.csv', catalogRows(3))], env);
    const second = await rig.cli(['run', await rig.csv('two.csv', catalogRows(4, 500))], env);
    expect([first.code, second.code]).toEqual([3, 3]);
    const [one, two] = [runIdOf(first.stderr), runIdOf(second.stderr)];

    const cancelOne = await rig.cli(['cancel', one], env);

    expect(cancelOne.code, cancelOne.stderr).toBe(0);
    expect(cancelOne.stdout).not.toContain('no longer paused');
    expect((await rig.status(two, env)).seller.authRejected).toBe(true);

    const cancelTwo = await rig.cli(['cancel', two], env);

    expect(cancelTwo.code, cancelTwo.stderr).toBe(0);
    expect(cancelTwo.stdout).toContain('no longer paused for its rejected key (401)');
    expect((await rig.status(two, env)).seller.authRejected).toBe(false);
  });

  it('a base URL where nothing answers: exit 6 names `cancel`; after it the seller is not shown cannot reach', {
    timeout: 60_000,
  }, async () => {
    const baseUrl = `http://127.0.0.1:${await freePort()}/api/v1`;
    const env = rig.env(KEY_A, { SELLER_API_BASE_URL: baseUrl, CATALOG_SYNC_RETRY_BASE_MS: '1' });
    const unreachable = await rig.cli(['run', await rig.csv('catalog.csv', catalogRows(5))], env);
    expect(unreachable.code).toBe(6);
    const runId = runIdOf(unreachable.stderr);
    expect(unreachable.stderr).toContain(`a mistyped base URL: drop them with catalog-sync cancel ${runId}`);
    const ref = (await rig.status(runId, env)).sellerRef;
    expect(await dashboardSeller(env, ref)).toMatchObject({ state: 'unreachable' });

    const cancelled = await rig.cli(['cancel', runId], env);

    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stdout).toContain(
      `seller ${ref}: nothing of it is queued any more; no longer paused for its API out of reach`,
    );
    expect((await rig.status(runId, env)).seller).toMatchObject({ unreachable: null });
    expect(await dashboardSeller(env, ref)).toMatchObject({ state: 'active', queue: { waiting: 0 } });
  });
});
