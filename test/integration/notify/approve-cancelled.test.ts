import { describe, expect, it } from 'vitest';
import { fourPricedRows, parseCsv } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';
import { useWebhookReceiver } from '../support/webhook-receiver.js';

/** The JSON log lines of a process's stderr (what a log collector reads). */
function jsonLines(stderr: string): Array<Record<string, unknown>> {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/**
 * A run held by a guard, approved, its approval paused on the daily limit, then cancelled: the
 * cancel resettles the approved row not written, and that ends the run. It ends as every run ends
 * (queue/finalise.ts): one `ended` webhook with the counts the report shows, one end log line.
 * The API is the sandbox over HTTP, the webhook a receiver on loopback, Redis real.
 */
describe('--notify: a run whose approval is cancelled while paused on the daily limit', () => {
  const DAY_MS = 1500;
  // The sandbox's clock stands still (no reset while the test looks) until the test moves it a day on.
  let sandboxNow = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const pipeline = usePipeline({ dailyLimit: 5, dayLengthMs: DAY_MS, now: () => sandboxNow });
  const hook = useWebhookReceiver();
  /** The environment of a process that reads the run's webhook back from Redis (approve, cancel). */
  const hookEnv = () => ({ CATALOG_SYNC_WEBHOOK_HOSTS: new URL(hook.url).host });

  it('tells `ended` once, cancelled, with the counts of its report, and logs its end once', async () => {
    // 1 list read + 4 creates: the day's 5 requests.
    expect((await pipeline.cli(['run', await pipeline.csv('r-a.csv', fourPricedRows(0))])).code).toBe(0);
    sandboxNow += DAY_MS;
    const source = await pipeline.csv('r-b.csv', fourPricedRows(1));
    const held = await pipeline.cli(['run', source, '--max-updates', '1', '--notify', hook.url]);
    expect(held.code).toBe(5);
    const id = runIdOf(held.stdout);
    // Its list read again, then 3 PUTs: the 4th meets the limit, and stays approved and queued.
    const approve = await pipeline.cli(['approve', id, '--no-wait', '--concurrency', '1'], hookEnv());
    expect(approve.code, approve.stderr).toBe(4);
    expect(hook.posts.filter((post) => post.body.event === 'ended')).toHaveLength(0);

    const cancel = await pipeline.cli(['cancel', id], { ...hookEnv(), LOG_LEVEL: 'info' });

    expect(cancel.code, cancel.stderr).toBe(0);
    expect(cancel.stdout).toContain(`run ${id}: cancelled`);
    const report = parseCsv((await pipeline.cli(['report', id])).stdout);
    const count = (action: string) => report.filter((line) => line.action === action).length;
    expect(report.find((line) => line.key === 'R-4')).toMatchObject({
      action: 'skipped',
      error: 'cancelled',
    });
    const ended = hook.posts.filter((post) => post.body.event === 'ended');
    expect(ended).toHaveLength(1);
    expect(ended[0]?.body).toMatchObject({
      runId: id,
      state: 'cancelled',
      counts: {
        created: count('create'),
        updated: count('update'),
        failed: 0,
        skipped: count('skipped'),
        held: 0,
      },
    });
    expect(ended[0]?.body.counts).toMatchObject({ updated: 3, skipped: 1 });
    expect(ended[0]?.body.text).toBe(
      `catalog-sync run ${id} cancelled: 0 created, 3 updated, 0 failed, 1 skipped (seller ${ended[0]?.body.sellerRef})`,
    );
    // The one line a log holds per run end: this run's, written by the cancel that ended it.
    const endLines = jsonLines(cancel.stderr).filter((line) => line.msg === `run ${id} cancelled`);
    expect(endLines).toHaveLength(1);
    expect(endLines[0]).toMatchObject({ run: id, state: 'cancelled', rows: 4, updated: 3, skipped: 1 });
    const status = JSON.parse((await pipeline.cli(['status', id, '--json'])).stdout);
    expect(status).toMatchObject({ state: 'cancelled', settled: 4 });
    expect(status.finishedAt).toBeGreaterThanOrEqual(status.cancelledAt);
  });
});
