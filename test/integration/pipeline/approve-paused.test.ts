import { describe, expect, it } from 'vitest';
import { fourPricedRows, parseCsv } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { requestCounts, usePipeline } from '../support/pipeline.js';

/**
 * An `approve` that meets the daily limit: its rows not sent yet stay approved and queued (a worker
 * sends them after the reset). They are not `held` any more: report, status and status --json say
 * them still to settle; and a `cancel` of that run ends it, those rows skipped (cancelled).
 */
describe('an approve paused on the daily limit', () => {
  const DAY_MS = 1500;
  // The sandbox's clock stands still (no reset while the test looks) until the test moves it a day on.
  let sandboxNow = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const pipeline = usePipeline({ dailyLimit: 5, dayLengthMs: DAY_MS, now: () => sandboxNow });

  /** The prices of R-1…R-4 on the marketplace. */
  const prices = () =>
    pipeline
      .products()
      .sort((a, b) => String(a.sku).localeCompare(String(b.sku)))
      .map((product) => Number(product.price));

  /** The held run of `--max-updates 1` over 4 updates, approved until the limit: 3 sent, 1 queued. */
  async function approvedUntilTheLimit(): Promise<string> {
    // 1 list read + 4 creates: the day's 5 requests.
    expect((await pipeline.cli(['run', await pipeline.csv('r-a.csv', fourPricedRows(0))])).code).toBe(0);
    sandboxNow += DAY_MS;
    const held = await pipeline.cli([
      'run',
      await pipeline.csv('r-b.csv', fourPricedRows(1)),
      '--max-updates',
      '1',
    ]);
    expect(held.code).toBe(5);
    const id = runIdOf(held.stdout);
    // Its list read again, then 3 PUTs: the 4th meets the limit, and stays queued.
    const approve = await pipeline.cli(['approve', id, '--no-wait', '--concurrency', '1']);
    expect(approve.code).toBe(4);
    expect(prices()).toEqual([11, 21, 31, 40]);
    return id;
  }

  it('reports its queued row still to settle, not held, in report, status and status --json', async () => {
    const id = await approvedUntilTheLimit();

    const report = await pipeline.cli(['report', id]);
    const lines = parseCsv(report.stdout);
    expect(lines.map((line) => line.status)).toEqual(['ok', 'ok', 'ok']);
    expect(lines.find((line) => line.key === 'R-4')).toBeUndefined();
    expect(report.stderr).toContain(`run ${id} is not over (running): 1 row still to settle is not listed`);

    const status = await pipeline.cli(['status', id]);
    expect(status.stdout).toMatch(/rows {6}3 settled of 4, 1 approved and queued/);
    // The outcomes add up to the rows: the queued one is said, neither held nor settled.
    expect(status.stdout).toMatch(/outcome {3}0 created, 3 updated, .*, 1 approved and queued, 0 missing/);
    expect(status.stdout).not.toMatch(/\bheld\b/);
    const json = JSON.parse((await pipeline.cli(['status', id, '--json'])).stdout);
    expect(json).toMatchObject({ state: 'running', settled: 3, total: 4, approvedQueued: 1 });
    expect(json.counts.held).toBe(0);
  });

  it('cancel ends it: the queued row skipped (cancelled), the run cancelled, nothing more sent', async () => {
    const id = await approvedUntilTheLimit();

    const cancel = await pipeline.cli(['cancel', id]);
    expect(cancel.code).toBe(0);
    expect(cancel.stdout).toContain(`run ${id}: cancelled`);

    const json = JSON.parse((await pipeline.cli(['status', id, '--json'])).stdout);
    expect(json).toMatchObject({ state: 'cancelled', settled: 4 });
    expect(json.approvedQueued).toBeUndefined();
    expect(json.counts).toMatchObject({ held: 0, updated: 3, skipped: 1 });
    const report = await pipeline.cli(['report', id]);
    expect(parseCsv(report.stdout).find((line) => line.key === 'R-4')).toMatchObject({
      action: 'skipped',
      status: 'ok',
      error: 'cancelled',
    });
    expect(report.stderr).toBe('');

    // A new day: nothing of it is sent any more, and the run's writes may be put back.
    sandboxNow += DAY_MS;
    pipeline.sandbox.resetStats();
    expect((await pipeline.cli(['approve', id, '--no-wait'])).code).toBe(2);
    expect(requestCounts(pipeline.sandbox.stats()).updates).toBe(0);
    expect(prices()).toEqual([11, 21, 31, 40]);
    expect((await pipeline.cli(['revert', id])).stderr).not.toContain('has not ended');
  });
});
