import { describe, expect, it } from 'vitest';
import type { HeldRequest } from '../../../src/sandbox/options.js';
import { type Gate, gate } from '../../support/gate.js';
import { catalogRows, parseCsv } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { eventually, runDone, SELLER_A, useFailureRig } from './support/rig.js';

/**
 * A run that plans its rows before it writes (over the day's quota: planned first; or guarded)
 * cancelled while its list is being read: the chunks a worker holds then plan their rows, and no
 * decision ever sends them (a cancelled run sends nothing more). The run must still end cancelled
 * by itself, its planned rows settled as a cancel settles queued ones, none sent.
 */
describe('`catalog-sync cancel` of a planned run while its list is read', () => {
  // The sandbox holds the run's list read until the test lets it go: the cancel lands during it.
  let listAsked: Gate;
  let listLetGo: Gate;
  const rig = useFailureRig(() => {
    listAsked = gate();
    listLetGo = gate();
    return {
      hold: (request: HeldRequest) => {
        if (request.method !== 'GET' || request.path !== '/products') return undefined;
        listAsked.open();
        return listLetGo.promise;
      },
    };
  });

  const cancelDuringListRead = async (rows: number, options: string[]): Promise<string> => {
    const source = await rig.csv('catalog.csv', catalogRows(rows));
    const imported = await rig.cli(['import', source, ...options]);
    expect(imported.code, imported.stderr).toBe(0);
    const runId = runIdOf(imported.stdout);
    rig.spawn(['worker', '--concurrency', '2']);
    await listAsked.promise;

    const cancelled = await rig.cli(['cancel', runId]);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stdout).toMatch(/cancelling; \d+ chunk\(s\) in progress/);
    listLetGo.open();
    return runId;
  };

  const expectEndedCancelledUnsent = async (runId: string, rows: number) => {
    const ended = await eventually('the run to end cancelled', async () => {
      const status = await rig.status(runId);
      return status.state === ('cancelled' as string) ? status : undefined;
    });
    expect(ended.settled).toBe(rows);
    const report = parseCsv((await rig.cli(['report', runId])).stdout);
    expect(report.map((line) => Number(line.row))).toEqual(catalogRows(rows).map((_, i) => i + 1));
    expect(new Set(report.map((line) => `${line.action}:${line.status}:${line.error}`))).toEqual(
      new Set(['skipped:ok:cancelled']),
    );
    // The rows keep their keys: the report says which products were left out.
    expect(report.map((line) => line.key)).toEqual(catalogRows(rows).map((row) => row.sku));
    // No write was sent for a row of it.
    expect(rig.sandbox.products(SELLER_A)).toEqual([]);
    expect(rig.sandbox.requests().filter((request) => request.method !== 'GET')).toEqual([]);

    // The seller's next run is not kept waiting behind it.
    const next = await rig.cli(['import', await rig.csv('next.csv', catalogRows(3, 9001))]);
    expect((await runDone(rig, runIdOf(next.stdout))).counts.created).toBe(3);
  };

  it('over the day’s quota (planned first): ends cancelled by itself, its planned rows skipped', {
    timeout: 60_000,
  }, async () => {
    // 200 rows and the list read need more than the 100 requests a day: the run is planned first.
    const runId = await cancelDuringListRead(200, ['--daily-budget', '100']);

    await expectEndedCancelledUnsent(runId, 200);
  });

  it('guarded (--max-price-change): ends cancelled by itself, its planned rows skipped', {
    timeout: 60_000,
  }, async () => {
    const runId = await cancelDuringListRead(400, ['--max-price-change', '30%']);

    await expectEndedCancelledUnsent(runId, 400);
  });
});
