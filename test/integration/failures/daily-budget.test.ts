import { describe, expect, it } from 'vitest';
import { catalogRows, fourPricedRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { useFailureRig } from './support/rig.js';

describe('--daily-budget N', () => {
  // The API itself has no limit here: only our own budget can stop the run.
  const rig = useFailureRig();

  it('sends exactly N requests, then pauses the seller until the daily reset (exit 4 with --no-wait)', async () => {
    const source = await rig.csv('catalog.csv', catalogRows(40));

    const result = await rig.cli(['run', source, '--daily-budget', '10', '--no-wait', '--concurrency', '4']);

    expect(result.code).toBe(4);
    expect(result.stderr).toContain('the daily budget (--daily-budget 10)');
    expect(rig.sandbox.stats().total).toBe(10);
    const status = await rig.status(runIdOf(result.stderr));
    expect(status.seller.requestsToday).toBe(10);
    expect(status.seller.pausedUntil).toBeGreaterThan(Date.now());
    expect(status.state).not.toBe('done');
    expect(status.settled).toBe(9); // one list page, then nine creates
  });

  it('a run that starts with the budget spent says once, in words, that it waits, until when, and how to stop', {
    timeout: 30_000,
  }, async () => {
    const spent = await rig.cli([
      'run',
      await rig.csv('first.csv', catalogRows(40)),
      '--daily-budget',
      '10',
      '--no-wait',
    ]);
    expect(spent.code).toBe(4);
    const spentId = runIdOf(spent.stderr);
    const second = await rig.csv('second.csv', catalogRows(5, 101));
    // Before: nothing on stdout, and on stderr only the JSON log line "paused until 00:00 UTC".
    const waitLine = (what: string) =>
      new RegExp(
        `^catalog-sync: paused until (?:\\d{4}-\\d\\d-\\d\\d )?\\d\\d:\\d\\d UTC \\(in [^)]+\\) on run ${spentId}'s daily budget [^\\n]*: ` +
          `${what} \\S+ waits and goes on by itself then; Ctrl-C stops the wait \\(([^)]+)\\), --no-wait exits 4 instead$`,
        'm',
      );
    const dry = rig.spawn(['run', second, '--dry-run', '--daily-budget', '10']);
    const dryLine = await dry.waitForStderr(waitLine('dry run'));
    expect(dryLine[1]).toBe('the dry run is ended');
    const real = rig.spawn(['run', second, '--daily-budget', '10']);
    const realLine = await real.waitForStderr(waitLine('run'));
    expect(realLine[1]).toBe('its rows stay queued for any `catalog-sync worker`');
    expect(rig.sandbox.stats().total).toBe(10);
  });

  it('counts the requests of earlier runs the same day against the budget', async () => {
    const first = await rig.csv('first.csv', catalogRows(5));
    expect((await rig.cli(['run', first, '--daily-budget', '8'])).code).toBe(0); // 1 list + 5 creates

    const second = await rig.csv('second.csv', catalogRows(5, 101));
    const result = await rig.cli(['run', second, '--daily-budget', '8', '--no-wait']);

    expect(result.code).toBe(4);
    expect(rig.sandbox.stats().total).toBe(8);
  });

  it("names another run's budget as the pause's cause, and that run's cancel lets the others go on", async () => {
    const budgeted = await rig.cli([
      'run',
      await rig.csv('budgeted.csv', catalogRows(40)),
      '--daily-budget',
      '10',
      '--no-wait',
      '--concurrency',
      '4',
    ]);
    expect(budgeted.code).toBe(4);
    const budgetedId = runIdOf(budgeted.stderr);
    const other = await rig.csv('other.csv', catalogRows(5, 101));

    // Before: "… on the seller's daily request limit", though the API has none.
    const behind = await rig.cli(['run', other, '--no-wait']);
    expect(behind.code).toBe(4);
    expect(behind.stderr).toContain(
      `on run ${budgetedId}'s daily budget (its --daily-budget; \`catalog-sync cancel ${budgetedId}\` lifts it)`,
    );
    expect(rig.sandbox.stats().total).toBe(10);

    const cancelled = await rig.cli(['cancel', budgetedId]);
    expect(cancelled.code).toBe(0);
    expect(cancelled.stdout).toContain(`no longer paused for run ${budgetedId}'s daily budget`);

    // Before: paused until the quota day's end, whatever was cancelled.
    const after = await rig.cli(['run', other]);
    expect(after.code).toBe(0);
    expect(after.stdout).toMatch(/5 created/);
  });

  it("an approve of a budgeted run that meets the run's budget names it in its exit-4 line", async () => {
    // 1 list read + 4 creates: 5 of the day's requests.
    expect((await rig.cli(['run', await rig.csv('seed.csv', fourPricedRows(0))])).code).toBe(0);
    const source = await rig.csv('moved.csv', fourPricedRows(1));
    // Its list read: 6; its 4 updates held.
    const held = await rig.cli(['run', source, '--max-updates', '1', '--daily-budget', '9']);
    expect(held.code).toBe(5);
    const id = runIdOf(held.stdout);

    // The list read again (7), 2 PUTs (8, 9): the 3rd meets the run's own budget.
    const approve = await rig.cli(['approve', id, '--no-wait', '--concurrency', '1']);

    expect(approve.code).toBe(4);
    // Before: "… on the daily request limit", though the API has none.
    expect(approve.stderr).toContain('on the daily budget (--daily-budget 9).');
    expect(approve.stderr).toContain(`The approved rows of run ${id} stay queued`);
    expect(rig.sandbox.stats().total).toBe(9);
  });
});
