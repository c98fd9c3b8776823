import { describe, expect, it } from 'vitest';
import { fourPricedRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';

/**
 * An `approve` that waits out the daily limit (no `--no-wait`) says so once, in words, as `run`
 * does: until when, on what, that it goes on by itself, and how to stop the wait. Before, only a
 * JSON log line said it (none at all at a silent log level): a cron mail showed nothing.
 */
describe('an approve that waits out the daily limit', () => {
  // An hour's day: one pause the whole test long (a shorter one would pause again, and say it again).
  const DAY_MS = 60 * 60 * 1000;
  // The sandbox's clock stands still until the test moves it a day on.
  let sandboxNow = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const pipeline = usePipeline({ dailyLimit: 5, dayLengthMs: DAY_MS, now: () => sandboxNow });

  it('says once that it waits, until when, and that Ctrl-C leaves the approved rows queued (exit 130)', {
    timeout: 30_000,
  }, async () => {
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

    // Its list read again, then 3 PUTs: the 4th meets the limit, and waits for the reset.
    const approve = pipeline.spawn(['approve', id, '--concurrency', '1']);
    const notice = new RegExp(
      `^catalog-sync: paused until (?:\\d{4}-\\d\\d-\\d\\d )?\\d\\d:\\d\\d UTC \\(in [^)]+\\) on the seller's daily request limit: ` +
        `the approval of run ${id} waits and goes on by itself then; ` +
        'Ctrl-C stops the wait \\(([^)]+)\\), --no-wait exits 4 instead$',
      'gm',
    );
    const [line] = await approve.waitForStderr(notice);
    expect(line).toContain(
      `(the approved rows stay queued for any \`catalog-sync worker\` or another \`catalog-sync approve ${id}\`)`,
    );

    // What the line says of Ctrl-C holds: the wait stops, said in one line, exit 130 as a shell
    // expects (before: killed by the signal, nothing said); the 4th row is still approved and queued.
    approve.process.kill('SIGINT');
    expect(await approve.exited).toEqual({ code: 130, signal: null });
    expect(approve.stderr().match(notice)).toHaveLength(1);
    expect(approve.stderr()).toContain(
      `catalog-sync: interrupted (SIGINT): 3 of the 4 approved rows of run ${id} settled before it stopped, ` +
        `1 stays queued and goes on with any ` +
        `\`catalog-sync worker\` or another \`catalog-sync approve ${id}\`.\n`,
    );
    const status = await pipeline.cli(['status', id]);
    expect(status.stdout).toMatch(/rows {6}3 settled of 4, 1 approved and queued/);
  });
});
