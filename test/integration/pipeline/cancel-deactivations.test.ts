import { describe, expect, it } from 'vitest';
import { catalogRows, parseCsv } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { bySku, requestCounts, usePipeline } from '../support/pipeline.js';

/** 10 products this tool made and manages, each with a status the `--missing` values change. */
const MANAGED = catalogRows(10).map((row) => ({ ...row, status: 'active' }));
const KEPT = MANAGED.slice(0, 5);

/**
 * `cancel` of a run whose `--missing` deactivations are queued (here waiting out the daily limit)
 * ends it (CONTRACT: cancel "ends a queued or paused run"): those not sent are reported not sent
 * (`deactivate`, `failed`, error `cancelled`), the run is `cancelled`, and nothing is sent after.
 */
describe('cancel of a run whose deactivations are queued', () => {
  const DAY_MS = 1500;
  // The sandbox's clock stands still (no reset while the test looks) until the test moves it a day on.
  let sandboxNow = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const pipeline = usePipeline({ dayLengthMs: DAY_MS, now: () => sandboxNow });

  /** Day 1 makes the 10 products; day 2 allows `limit` requests. */
  async function managedThenLimited(limit: number): Promise<void> {
    expect((await pipeline.cli(['run', await pipeline.csv('all.csv', MANAGED)])).code).toBe(0);
    sandboxNow += DAY_MS;
    pipeline.sandbox.setFaults({ dailyLimit: limit });
  }

  const inactive = () =>
    [...bySku(pipeline.products()).values()].filter((p) => p.status === 'inactive').length;

  /** The cancel ends the run: status and report agree, 2 deactivated, 3 not sent (cancelled). */
  async function expectCancelledWithTwoSent(id: string): Promise<void> {
    const cancel = await pipeline.cli(['cancel', id]);
    expect(cancel.code, cancel.stdout + cancel.stderr).toBe(0);
    expect(cancel.stdout).toContain(`run ${id}: cancelled`);

    const json = JSON.parse((await pipeline.cli(['status', id, '--json'])).stdout);
    expect(json).toMatchObject({ state: 'cancelled', settled: 5, total: 5 });
    expect(json.counts).toMatchObject({ deactivated: 2, deactivateFailed: 3, deactivateHeld: 0 });
    const report = await pipeline.cli(['report', id]);
    expect(report.stderr).toBe('');
    const missing = parseCsv(report.stdout).filter((line) => line.row === '');
    expect(missing.map((l) => `${l.action}:${l.status}:${l.error}`).sort()).toEqual([
      ...Array(3).fill('deactivate:failed:cancelled'),
      ...Array(2).fill('deactivate:ok:'),
    ]);
    expect(inactive()).toBe(2);

    // A new day, a worker serving the seller: nothing of it is sent any more.
    sandboxNow += DAY_MS;
    pipeline.sandbox.resetStats();
    expect((await pipeline.cli(['run', await pipeline.csv('again.csv', KEPT)])).code).toBe(0);
    expect(requestCounts(pipeline.sandbox.stats()).updates).toBe(0);
    expect(inactive()).toBe(2);
  }

  it('a plain --missing run: its finalisation done, the deactivations not sent end cancelled', async () => {
    await managedThenLimited(3);
    // 1 list read, 2 PUTs: the 3rd meets the limit, and 3 deactivations stay queued.
    const run = await pipeline.cli([
      'run',
      await pipeline.csv('kept.csv', KEPT),
      '--missing',
      'status=inactive',
      '--max-missing',
      '100%',
      '--concurrency',
      '1',
      '--no-wait',
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(4);
    expect(inactive()).toBe(2);

    // The pause's line on stderr names the run.
    await expectCancelledWithTwoSent(runIdOf(run.stderr));
  });

  it('an approve of a run --max-missing held whole, paused on the daily limit', async () => {
    // The held run's list read, then approve's.
    await managedThenLimited(4);
    const held = await pipeline.cli([
      'run',
      await pipeline.csv('kept.csv', KEPT),
      '--missing',
      'status=inactive',
    ]);
    expect(held.code, held.stdout + held.stderr).toBe(5);
    const id = runIdOf(held.stdout);
    // Its list read again, 2 PUTs: the 3rd meets the limit, and 3 deactivations stay queued.
    const approve = await pipeline.cli(['approve', id, '--no-wait', '--concurrency', '1']);
    expect(approve.code, approve.stdout + approve.stderr).toBe(4);
    expect(inactive()).toBe(2);

    await expectCancelledWithTwoSent(id);
  });
});
