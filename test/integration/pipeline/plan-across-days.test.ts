import { describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { usePipeline } from '../support/pipeline.js';

/** The plan line of issue 14: the requests a run needs, the daily limit known, and the days. */
describe('a run says its plan across daily limits before its first write', () => {
  // A short sandbox day: a run that meets the limit goes on after a reset of about a second.
  const pipeline = usePipeline({ dailyLimit: 5, dayLengthMs: 1500 });

  it('with --daily-budget: up to one request per row plus the list read, what is left today, the days', async () => {
    const source = await pipeline.csv('catalog.csv', catalogRows(20));

    const first = await pipeline.cli(['run', source, '--daily-budget', '8', '--no-wait']);

    expect(first.code).toBe(4);
    expect(first.stdout).toContain(
      'plan      up to 21 requests, 8 a day (--daily-budget), 8 left today: 3 days',
    );
  });

  it('--daily-budget goes before the learned limit', async () => {
    const source = await pipeline.csv('catalog.csv', catalogRows(6));
    await pipeline.cli(['run', source, '--concurrency', '1']);

    const dry = await pipeline.cli(['run', source, '--dry-run', '--daily-budget', '100']);

    expect(dry.stdout).toContain('requests  1 needed (1 read, 0 writes), 100 a day (--daily-budget): 1 day');
  });
});

describe('the daily limit learned from a 429', () => {
  const DAY_MS = 1500;
  // The sandbox's clock stands still (no reset while a run counts) until the test moves it a day on;
  // it starts at the beginning of a sandbox day, so the 429's reset is at most a day away.
  let sandboxNow = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const pipeline = usePipeline({ dailyLimit: 5, dayLengthMs: DAY_MS, now: () => sandboxNow });

  it('is the requests counted that day before its first 429, and the plan uses it', async () => {
    const source = await pipeline.csv('catalog.csv', catalogRows(8));

    // One request at a time: the 6th request of the day is the first answered 429.
    const learning = await pipeline.cli(['run', source, '--concurrency', '1', '--no-wait']);
    expect(learning.code).toBe(4);
    expect(learning.stdout).toContain(
      'plan      up to 9 requests; the daily limit is not known (--daily-budget N tells it)',
    );

    sandboxNow += DAY_MS;
    const today = new Date().toISOString().slice(0, 10);
    const dry = await pipeline.cli(['run', source, '--dry-run']);
    // (The first run's rows left queued are still to create: its plan counts them.)
    expect(dry.stdout).toMatch(
      new RegExp(
        `^  requests  \\d+ needed \\(1 read, \\d+ writes\\), 5 a day \\(learned from the 429 of ${today}\\): 1 day$`,
        'm',
      ),
    );

    // A dry run does not send them: the next `run` of the source does, on the sandbox's next day.
    sandboxNow += DAY_MS;
    expect((await pipeline.cli(['run', source])).code).toBe(0);

    // The API's next day: its X-RateLimit-Remaining told the last run that the API's day had turned
    // (more left than the tool's own count allowed: window-rebase.ts), so the plan counts the API's
    // day, not the tool's 24 hours since the first 429; its later 429s do not change the limit.
    sandboxNow += DAY_MS;
    const again = await pipeline.cli(['run', await pipeline.csv('more.csv', catalogRows(12))]);
    expect(again.stdout).toContain(
      `plan      up to 13 requests, 5 a day (learned from the 429 of ${today}), 5 left today: 3 days`,
    );
    expect(again.code).toBe(0);
  });
});
