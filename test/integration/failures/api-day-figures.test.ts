import { describe, expect, it } from 'vitest';
import { parseLearned } from '../../../src/runs/learned-limit.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { withRedis } from '../support/redis-prefix.js';
import { expectExactCatalog } from './support/exact-catalog.js';
import { type FailureRig, killAfterWrites, runDone, SELLER_A, sleep, useFailureRig } from './support/rig.js';

// Once a 429 taught the limit, the tool counts its requests from the reset it announced, 24 h on.
// When the API's day turns with no 429 the tool sees (its day is not 24 h from that reset), its
// limit rises, or a killed process never sent the numbers it held, the tool's count runs past the
// learned limit while the API's X-RateLimit-Remaining shows room: the API's figure holds, not the
// count (sellers/window-rebase.ts). Before, every later request went one at a time (and waited up
// to 10 s for a killed process's answers), and the next 429 taught a limit counted over two API days.

/** The seller's learned limit (the only seller under the rig's prefix), or null. */
function learnedLimit(rig: FailureRig): Promise<number | null> {
  return withRedis(async (redis) => {
    const [key] = await redis.keys(`${rig.prefix}:*:learned-limit`);
    return key ? (parseLearned(await redis.get(key))?.limit ?? null) : null;
  });
}

describe("the API's day turns with no 429 seen, or its limit rises (X-RateLimit-Remaining shows room)", () => {
  // Days of 4 s (the sandbox's clock): each step of the test begins just after a day turns and
  // fits in it; the 429 says its reset in epoch milliseconds.
  const LIMIT = 20;
  const DAY_MS = 4000;
  const rig = useFailureRig(() => ({
    dailyLimit: LIMIT,
    dayLengthMs: DAY_MS,
    resetHeader: 'x-ratelimit-reset-ms',
    latencyMs: 20,
  }));
  const apiDay = (at: number) => Math.floor(at / DAY_MS);
  /** Waits until the sandbox's next day has begun (a tenth of a second into it). */
  const nextDay = () => sleep((apiDay(Date.now()) + 1) * DAY_MS + 100 - Date.now());
  /** The requests the API accepted in its current day. */
  const acceptedToday = () =>
    rig.sandbox.timedRequests().filter((r) => r.status !== 429 && apiDay(r.at) === apiDay(Date.now())).length;
  const run = async (rows: number, first: number, extra: string[] = []) => {
    const result = await rig.cli(['run', await rig.csv(`c${first}.csv`, catalogRows(rows, first)), ...extra]);
    return result;
  };

  /** A list read and 30 creates: 20 pass, the 21st meets the 429, 11 go in the next day. */
  async function learnTheLimit(): Promise<void> {
    // The modules a command loads the first time are loaded before the day the run must fit in.
    await rig.cli(['status']);
    await nextDay();
    const first = await run(30, 1, ['--concurrency', '4']);
    expect(first.code, first.stderr).toBe(0);
    expect(await learnedLimit(rig)).toBe(LIMIT);
  }

  it('goes on at full concurrency, counts the day the API counts, and learns the limit of one API day', {
    timeout: 60_000,
  }, async () => {
    await learnTheLimit();
    // Two API days with no 429: the tool's count (from the reset, 24 h) runs past the limit.
    await nextDay();
    expect((await run(15, 31, ['--concurrency', '4'])).code).toBe(0);
    await nextDay();
    rig.sandbox.resetStats();
    const day = apiDay(Date.now());
    const third = await run(15, 46, ['--concurrency', '4']);
    expect(third.code, third.stderr).toBe(0);
    const status = await rig.status();
    const today = acceptedToday();
    expect(apiDay(Date.now()), "the API's day turned during the step: make DAY_MS longer").toBe(day);

    // Before: one request at a time past the count's limit (the API had 20 left), and 43 today.
    expect(rig.sandbox.stats().maxInFlight, 'requests in flight at once').toBeGreaterThan(1);
    expect(rig.sandbox.stats().rateLimited).toBe(0);
    expect(status.seller.requestsToday).toBe(today);

    // The crossing of this API day: one 429, and the limit it teaches is this day's (before: 47).
    const fourth = await run(10, 61, ['--concurrency', '4', '--no-wait']);
    expect(fourth.code, fourth.stderr).toBe(4);
    expect(rig.sandbox.stats().rateLimited).toBe(1);
    expect(await learnedLimit(rig)).toBe(LIMIT);
  });

  it('takes a limit raised (X-RateLimit-Limit) within the day, and counts the day the API counts', {
    timeout: 60_000,
  }, async () => {
    await learnTheLimit();
    const day = apiDay(Date.now());
    rig.sandbox.setFaults({ dailyLimit: 40 });
    // 11 sent today: 9 within the limit learned, then the API's figure says 19 more.
    const second = await run(25, 31, ['--concurrency', '4']);
    expect(second.code, second.stderr).toBe(0);
    const status = await rig.status();
    expect(apiDay(Date.now()), "the API's day turned during the step: make DAY_MS longer").toBe(day);

    expect(rig.sandbox.stats().rateLimited, 'only the first crossing').toBe(1);
    expect(await learnedLimit(rig)).toBe(40);
    expect(status.seller.requestsToday).toBe(acceptedToday());
    expectExactCatalog(rig.sandbox.products(SELLER_A), catalogRows(55));
  });
});

describe('a worker killed (SIGKILL) holding a block of request numbers, the API showing room', () => {
  // Days of 40 s: the first ends 2 s after the test begins (the sandbox's clock shifted by its own
  // seam, its day beginning at a whole second: a Retry-After in whole seconds says it exactly), so
  // that the first run crosses it, and the next holds the rest of the test.
  const LIMIT = 40;
  const DAY_MS = 40_000;
  let shift = 0;
  const apiNow = () => Date.now() - shift;
  const rig = useFailureRig(() => ({
    dailyLimit: LIMIT,
    dayLengthMs: DAY_MS,
    resetHeader: 'retry-after',
    latencyMs: 20,
    now: apiNow,
  }));

  it('the next worker sends at full concurrency once the API says so, and counts the day right', {
    timeout: 90_000,
  }, async () => {
    await rig.cli(['status']);
    const dayEnd = Math.ceil(Date.now() / 1000) * 1000 + 2000;
    shift = dayEnd % DAY_MS;
    // A list read and 65 creates: 40 pass, one 429, 26 after the reset: 26 counted in the window.
    const first = await rig.cli(['run', await rig.csv('a.csv', catalogRows(65)), '--concurrency', '4']);
    expect(first.code, first.stderr).toBe(0);
    expect(await learnedLimit(rig)).toBe(LIMIT);

    // The worker reserves the 14 numbers left within the limit, sends one at a time, and is killed
    // after two creates: most of its numbers were never sent, nor ever reported answered.
    const env = rig.env(undefined, { CATALOG_SYNC_LOCK_MS: '2000' });
    const imported = await rig.cli(['import', await rig.csv('b.csv', catalogRows(8, 66))], env);
    expect(imported.code).toBe(0);
    const runId = runIdOf(imported.stdout);
    await killAfterWrites(rig, rig.spawn(['worker', '--concurrency', '1'], env), 67);

    const apiDay = (at: number) => Math.floor(at / DAY_MS);
    const acceptedToday = () =>
      rig.sandbox.timedRequests().filter((r) => r.status !== 429 && apiDay(r.at) === apiDay(apiNow())).length;
    const before = acceptedToday();
    rig.sandbox.resetStats();
    rig.spawn(['worker', '--concurrency', '4'], env);
    const done = await runDone(rig, runId, 60_000);
    const status = await rig.status();

    expect(done.counts).toMatchObject({ created: 8, failed: 0 });
    expectExactCatalog(rig.sandbox.products(SELLER_A), catalogRows(73));
    expect(rig.sandbox.stats().rateLimited).toBe(0);
    // Before: each request past the count's limit waited up to 10 s for the killed worker's answers.
    expect(rig.sandbox.stats().maxInFlight, 'requests in flight at once').toBeGreaterThan(1);
    // The day the API counts: the killed worker's unsent numbers are not in it (before: 14 held).
    expect(status.seller.requestsReserved ?? 0).toBe(0);
    expect(status.seller.requestsToday).toBe(before + acceptedToday());
  });
});
